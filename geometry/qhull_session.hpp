#pragma once
// One qhull run (Debian libqhull-dev, reentrant API) with its set-up and clean-up in one place:
// messages go to /dev/null (they are not ours to print), and the destructor frees everything
// qhull allocated. Used by convex_hull.cpp and halfspace_intersection.cpp only.
extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <cstdio>

namespace kdop {

class QhullSession {
 public:
  // Runs qhull on `count` points of `dim` coordinates each with the given options
  // ("qhull Qt", "qhull FA", "qhull H..."); ok() tells whether it succeeded.
  QhullSession(int dim, int count, coordT* coords, char* options)
      : sink_(std::fopen("/dev/null", "w")) {
    qh_zero(&qh_, sink_);
    status_ = qh_new_qhull(&qh_, dim, count, coords, False, options, nullptr, sink_);
  }
  ~QhullSession() {
    qh_freeqhull(&qh_, !qh_ALL);
    int still_long = 0, total_long = 0;
    qh_memfreeshort(&qh_, &still_long, &total_long);
    if (sink_ != nullptr) std::fclose(sink_);
  }
  QhullSession(const QhullSession&) = delete;
  QhullSession& operator=(const QhullSession&) = delete;

  bool ok() const { return status_ == 0; }
  qhT* qh() { return &qh_; }

 private:
  std::FILE* sink_;
  qhT qh_;
  int status_ = 0;
};

}  // namespace kdop

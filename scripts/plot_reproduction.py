#!/usr/bin/env python3
"""Draws the plots of docs/reproduction.md from the CSV files kdop-reproduce writes.

Usage: plot_reproduction.py DIR   (DIR holds runs.csv and cost_model.csv; the PNGs go there too)
Needs matplotlib (Debian: python3-matplotlib, installed by `scripts/setup plots`).
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series(rows, experiment, key=lambda r: r["bv"]):
    """{name: [(param, row), ...]} for one experiment, sorted by param."""
    out = {}
    for r in rows:
        if r["experiment"] == experiment:
            out.setdefault(key(r), []).append((float(r["param"]), r))
    for v in out.values():
        v.sort(key=lambda p: p[0])
    return out


def save(fig, directory, name):
    path = os.path.join(directory, name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("plot_reproduction: wrote", path)


def plot_spheres(rows, directory):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, size in zip(axes, ("2000", "20000")):
        subset = [r for r in rows if r["experiment"] == "spheres" and f"-{size}-" in r["scene"]]
        for bv, points in series(subset, "spheres").items():
            ax.plot([p for p, _ in points], [float(r["n_v"]) for _, r in points], "o-", label=bv)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("alpha (gap of the nested spheres)")
        ax.set_ylabel("N_v (BV tests per query)")
        ax.set_title(f"Nested spheres, {size} triangles (Klosowski Tables 6/7)")
        ax.legend()
    save(fig, directory, "spheres_nv.png")


def plot_flights(rows, directory):
    flights = [r for r in rows if r["experiment"] == "flights"]
    scenes = sorted({r["scene"] for r in flights})
    bvs = []
    for r in flights:
        if r["bv"] not in bvs:
            bvs.append(r["bv"])
    fig, ax = plt.subplots(figsize=(10, 4.2))
    width = 0.8 / len(bvs)
    for i, bv in enumerate(bvs):
        times = [next(float(r["mean_us"]) for r in flights if r["scene"] == s and r["bv"] == bv)
                 for s in scenes]
        ax.bar([j + i * width for j in range(len(scenes))], times, width, label=bv)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(scenes))])
    ax.set_xticklabels(scenes)
    ax.set_yscale("log")
    ax.set_ylabel("mean query time (us)")
    ax.set_title("Flights (Klosowski Table 2)")
    ax.legend(ncol=4)
    save(fig, directory, "flights.png")


def plot_lines(rows, directory, experiment, y, xlabel, ylabel, title, name, log_x):
    """One line per BV type: y against the experiment's parameter."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for bv, points in series(rows, experiment).items():
        ax.plot([p for p, _ in points], [float(r[y]) for _, r in points], "o-", label=bv)
    if log_x:
        ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    save(fig, directory, name)


def plot_gaps(rows, directory):
    plot_lines(rows, directory, "gaps", "n_v", "epsilon (gap between the concentric spheres)",
               "N_v (BV tests per query)",
               "Concentric spheres (Gottschalk Fig. 5)", "gaps.png", True)


def plot_tori(rows, directory):
    plot_lines(rows, directory, "tori", "mean_us", "distance between the tori's centres",
               "mean query time (us)", "Rotating tori (Zachmann Fig. 4)", "tori.png", False)


def plot_cost_model(cost, directory):
    fig, ax = plt.subplots(figsize=(6.5, 5))
    by_bv = {}
    for r in cost:
        by_bv.setdefault(r["bv"], []).append((float(r["measured_us"]), float(r["predicted_us"])))
    low, high = math.inf, 0.0
    for bv, points in sorted(by_bv.items()):
        xs = [m for m, _ in points]
        ys = [max(p, 1e-3) for _, p in points]
        ax.scatter(xs, ys, s=14, label=bv)
        low, high = min(low, min(xs), min(ys)), max(high, max(xs), max(ys))
    ax.plot([low, high], [low, high], "k--", linewidth=1, label="predicted = measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured mean query time (us)")
    ax.set_ylabel("N_v C_v + N_p C_p + N_u C_u (us)")
    ax.set_title("Cost model, unit costs fitted per BV type")
    ax.legend(fontsize=8)
    save(fig, directory, "cost_model.png")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    rows = read(os.path.join(directory, "runs.csv"))
    experiments = {r["experiment"] for r in rows}
    if "spheres" in experiments:
        plot_spheres(rows, directory)
    if "flights" in experiments:
        plot_flights(rows, directory)
    if "gaps" in experiments:
        plot_gaps(rows, directory)
    if "tori" in experiments:
        plot_tori(rows, directory)
    plot_cost_model(read(os.path.join(directory, "cost_model.csv")), directory)


if __name__ == "__main__":
    main()

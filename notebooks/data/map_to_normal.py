"""Writes distributions.csv, the data of 09-map-to-normal.ipynb:

    /usr/bin/python3 notebooks/data/map_to_normal.py

Six columns of 1,000 values each, drawn as scikit-learn 1.2's gallery example "Map data to
a normal distribution" (examples/preprocessing/plot_map_data_to_normal.py, BSD 3-Clause)
draws them: numpy's RandomState(304), lognormal, chi-squared (3 degrees of freedom),
Weibull (a = 50), Gaussian (loc 100), uniform [0, 1) and a bimodal mixture of two
Gaussians (loc 100 and 105). One difference: a data set's columns share their rows, so
the bimodal column takes 500 values from each Gaussian where the gallery takes 1,000.

It also prints the lambdas scikit-learn fits on each column with PowerTransformer
(Box-Cox and Yeo-Johnson, all rows), rounded as the gallery rounds them, which the
notebook's figure must show under its panels.
"""
import csv
from pathlib import Path

import numpy as np
from sklearn.preprocessing import PowerTransformer

N_SAMPLES = 1000
rng = np.random.RandomState(304)
size = (N_SAMPLES, 1)
columns = {
    "lognormal": rng.lognormal(size=size),
    "chi_squared": rng.chisquare(df=3, size=size),
    "weibull": rng.weibull(a=50, size=size),
    "gaussian": rng.normal(loc=100, size=size),
    "uniform": rng.uniform(low=0, high=1, size=size),
}
low, high = rng.normal(loc=100, size=size), rng.normal(loc=105, size=size)
columns["bimodal"] = np.concatenate([low[: N_SAMPLES // 2], high[: N_SAMPLES // 2]], axis=0)

out = Path(__file__).with_name("distributions.csv")
with out.open("w", newline="") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(columns.keys())
    for row in zip(*(c[:, 0] for c in columns.values())):
        writer.writerow([repr(float(v)) for v in row])

X = np.column_stack([c[:, 0] for c in columns.values()])
for method in ("box-cox", "yeo-johnson"):
    lambdas = PowerTransformer(method=method).fit(X).lambdas_
    print(method, {name: round(float(lmbda), 2) for name, lmbda in zip(columns, lambdas)})

"""Writes breast-cancer.csv, the data set of 08-scalers-with-outliers.ipynb:

    /usr/bin/python3 notebooks/data/breast_cancer.py

(/usr/bin/python3 is Debian's, where the python3-sklearn package installs scikit-learn.)

Source: the Breast Cancer Wisconsin (Diagnostic) data set (W. H. Wolberg, W. N. Street and
O. L. Mangasarian, University of Wisconsin, 1995; UCI Machine Learning Repository), as
scikit-learn ships it in sklearn/datasets/data/breast_cancer.csv and loads it with
sklearn.datasets.load_breast_cancer. scikit-learn, that file included, is under the
BSD 3-Clause licence (Debian's /usr/share/doc/python3-sklearn/copyright); the UCI
repository offers the data under CC BY 4.0.

569 tumours, 30 measured features (their names snake_cased: "mean area" is mean_area)
and the diagnosis as a word (scikit-learn's target 0 is malignant, 1 benign). Area
features are strongly right-skewed with a few large tumours far out: area_error has a
median of 24.5 and a maximum of 542.2, which is what the lesson needs.
"""
import csv
from pathlib import Path

from sklearn.datasets import load_breast_cancer

data = load_breast_cancer()
names = [name.replace(" ", "_") for name in data.feature_names]
out = Path(__file__).with_name("breast-cancer.csv")
with out.open("w", newline="") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow([*names, "diagnosis"])
    for row, target in zip(data.data, data.target):
        # repr() of a float is the shortest text that reads back as the same number.
        writer.writerow([*(repr(float(v)) for v in row), data.target_names[target]])
print(f"wrote {out} ({len(data.data)} rows)")

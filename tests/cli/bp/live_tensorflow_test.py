"""Real TensorFlow (Keras 3) steps written by the TensorFlow recipe of bp(1)
(tests/cli/bp/tensorflow_recipe.py), imported and verified by the built bp.

Each Keras optimizer bp can describe (SGD, SGD with momentum, Nesterov, Adam, AdamW) trains a
small network several steps; the sidecars are imported multi-step, line by line and (SGD)
batched, and must agree with bp's engine and pass bp verify multi. Then one gradient, one
momentum buffer and one learning rate are tampered with in turn and each must be caught (exit 1).
Usage: live_tensorflow_test.py BP WORKDIR   (run by the SUITE_PYTHON_VENV interpreter)
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_common as lc  # noqa: E402

BP, WORK = sys.argv[1], sys.argv[2]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

import keras  # noqa: E402
import numpy as np  # noqa: E402

import tensorflow_recipe as recipe  # noqa: E402

keras.backend.set_floatx("float64")
TRACE = "7f0e1d2c3b4a59687766554433221100"


def train(label, make_opt, steps=4, batch=1, loss="half_squared_error", act_h="sigmoid", trace_id=TRACE):
    ce = loss == "cross_entropy_softmax"
    n_out = 3 if ce else 2
    keras.utils.set_random_seed(5)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation=act_h),
                              keras.layers.Dense(n_out, activation=None if ce else "sigmoid")])
    rec = recipe.KerasStepRecorder(model, make_opt(), loss, trace_id=trace_id)
    rng = np.random.default_rng(8)
    for _ in range(steps):
        x = rng.uniform(size=(batch, 2)) * 2 + 0.5
        y = np.eye(n_out)[rng.integers(0, n_out, size=batch)] if ce else rng.uniform(size=(batch, n_out))
        rec.step(x, y)
    path = os.path.join(WORK, f"{label}.jsonl")
    with open(path, "wb") as f:
        f.write(lc.dump_lines(rec.records))
    return path, rec.records


OPTIMIZERS = {
    "sgd": lambda: keras.optimizers.SGD(learning_rate=0.5),
    "sgd-momentum": lambda: keras.optimizers.SGD(learning_rate=0.3, momentum=0.9),
    "sgd-nesterov": lambda: keras.optimizers.SGD(learning_rate=0.3, momentum=0.8, nesterov=True),
    "adam": lambda: keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-12),
    "adamw": lambda: keras.optimizers.AdamW(learning_rate=0.01, weight_decay=0.05, epsilon=1e-12),
}
records = {}
for label, make in OPTIMIZERS.items():
    path, recs = train(label, make)
    lc.expect_agreement(BP, "tensorflow", path, label)
    records[label] = recs
for label, kw in {"ce-relu": {"loss": "cross_entropy_softmax", "act_h": "relu"},
                  "ce-batch6": {"loss": "cross_entropy_softmax", "batch": 6}, "half-batch5": {"batch": 5}}.items():
    path, recs = train(label, OPTIMIZERS["sgd"], steps=3, **kw)
    lc.check(("batch" in recs[0]) == ("batch" in kw), f"{label}: batched sidecar iff batch > 1")
    lc.expect_agreement(BP, "tensorflow", path, label)


def bump_gradient(recs):
    recs[1]["updates"][2]["gradient"] += 1e-3


def bump_buffer_after(recs):
    recs[2]["updates"][5]["optimizer"]["state_after"]["buffer"] *= 1.5


def bump_learning_rate(recs):
    recs[3]["learning_rate"] *= 1.1
    recs[3]["optimizer"]["learning_rate"] = recs[3]["learning_rate"]
    for u in recs[3]["updates"]:
        u["optimizer"]["learning_rate"] = recs[3]["learning_rate"]


def relabel_framework(recs):  # the importer is named by the command line, never by the file
    for r in recs:
        r["source_framework"]["name"] = "pytorch"


mom = records["sgd-momentum"]
lc.expect_caught(BP, "tensorflow", mom, bump_gradient, "tampered gradient", ".gradient")
lc.expect_caught(BP, "tensorflow", mom, bump_buffer_after, "tampered momentum buffer", "state_after.buffer")
lc.expect_caught(BP, "tensorflow", mom, bump_learning_rate, "tampered learning rate", "updates[")
lc.expect_caught(BP, "tensorflow", records["adamw"], bump_gradient, "adamw: tampered gradient", ".gradient")
rc, _, summary = lc.import_summary(BP, "tensorflow", lc.dump_lines([dict(r) for r in mom]))
bad = [dict(r, source_framework=dict(r["source_framework"], name="pytorch")) for r in mom]
rc, out, summary = lc.import_summary(BP, "tensorflow", lc.dump_lines(bad))
lc.check(rc == 2 and out == b"", f"relabelled framework refused with exit 2 and no output (got {rc})")

lc.expect_refusal(recipe.RecipeRefusal, lambda: train("rms", lambda: keras.optimizers.RMSprop()), "RMSprop",
                  "RMSprop")
lc.expect_refusal(recipe.RecipeRefusal, lambda: train("sgdwd", lambda: keras.optimizers.SGD(0.1, weight_decay=0.01)),
                  "decoupled", "Keras SGD weight decay")

lc.finish("live_tensorflow_test")

"""An ordinary PyTorch training loop on Fisher's iris data (tests/cli/bp/data/iris.csv), wrapped
in bp's live helper. The 4-3-3 sigmoid network starts from the weights of bp's iris fixture
(fixtures/configs/iris.json); mini-batches of 15 flowers, plain SGD (lr 2), float32, 100 steps.
The sidecars go to standard output:

    python3 live_iris_train.py HELPER_DIR FIXTURES_DIR | bp import pytorch multi - | bp verify multi -
"""
import csv
import json
import os
import sys

import torch

sys.path.insert(0, sys.argv[1])
from pytorch_trace_helper import TraceDumper, half_squared_error  # noqa: E402

fixtures = sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
SPECIES = ["setosa", "versicolor", "virginica"]
with open(os.path.join(here, "data", "iris.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
features = torch.tensor([[float(r[k]) for k in ("sepal_length", "sepal_width", "petal_length", "petal_width")]
                         for r in rows])
labels = torch.tensor([SPECIES.index(r["species"]) for r in rows])
targets = torch.nn.functional.one_hot(labels, 3).float()

with open(os.path.join(fixtures, "configs", "iris.json")) as f:
    fixture = json.load(f)
p = fixture["parameters_before"]
model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Sigmoid(), torch.nn.Linear(3, 3), torch.nn.Sigmoid())
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[p[f"w_f{i}_h{h}"] for i in range(1, 5)] for h in range(1, 4)]))
    model[0].bias.fill_(p["b_hidden"])
    model[2].weight.copy_(torch.tensor([[p[f"w_h{h}_o_{s}"] for h in range(1, 4)] for s in SPECIES]))
    model[2].bias.fill_(p["b_output"])

optimizer = torch.optim.SGD(model.parameters(), lr=2.0)
loss_fn = half_squared_error
order = torch.randperm(150, generator=torch.Generator().manual_seed(1936))

with TraceDumper(model, optimizer, loss_fn, trace_id="1936" + "0" * 28,
                 input_names=["f1", "f2", "f3", "f4"], output_names=[f"o_{s}" for s in SPECIES]) as dumper:
    for step in range(100):
        batch = order[(step % 10) * 15:(step % 10 + 1) * 15]
        x, y = features[batch], targets[batch]
        with dumper.step(x, y):
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()

with torch.no_grad():
    accuracy = (model(features).argmax(dim=1) == labels).float().mean().item()
print(f"iris: 100 steps, training accuracy {accuracy:.3f}", file=sys.stderr)

"""Fieldline client: upload CAD, mesh, run finite element analyses on a Fieldline server, read results.

from fieldline import Client
fl = Client()                      # FIELDLINE_URL and FIELDLINE_TOKEN
mesh = fl.mesh(fl.upload("part.step"), max_size=2)
job = fl.run(mesh, config)
results = job.results()            # fields (numpy) by catalogue name, quantities, S-parameters
study = fl.study(mesh, config, parameters={"frequency": [9e9, 10e9]}, outputs=["|S21|@10e9"])
"""

from .client import Client
from .errors import FieldlineError
from .jobs import Job
from .models import Mesh, Upload
from .results import FieldInfo, Results
from .studies import Study

__version__ = "0.1.0"
__all__ = [
    "Client",
    "FieldInfo",
    "FieldlineError",
    "Job",
    "Mesh",
    "Results",
    "Study",
    "Upload",
    "__version__",
]

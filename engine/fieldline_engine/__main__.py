import ctypes
import os
import sys

from fieldline_engine.cli import main
from fieldline_engine.core.ranks import launched_size

code = main()
# Every file the command wrote is closed and every protocol line flushed by now; tearing the interpreter down
# (NGSolve's, Netgen's and OpenCascade's objects and modules) takes ≈ 0.09 s — as long as a small job's solve,
# and the server counts a job as finished when its process exits. Under mpiexec the ranks finalize MPI at exit.
if launched_size() <= 1:
    sys.stdout.flush()
    sys.stderr.flush()
    ctypes.CDLL(None).fflush(None)  # what C libraries printed (fd 1 goes to stderr) and still hold in stdio
    os._exit(code)
raise SystemExit(code)

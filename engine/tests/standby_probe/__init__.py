"""An engine plugin (FIELDLINE_ENGINE_PLUGIN) for test_standby.py: reports, as a log line, the address-space
limit, an environment variable, the command line (`ps`) the job's process really has when its command starts, and
which families it would still have to import."""

import os
import resource

from fieldline_engine import analyses, protocol  # noqa: F401 — analyses registers the families
from fieldline_engine.core.registry import not_imported_types


def before_command(command: str, _job_dir) -> None:
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    limit_mb = None if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)
    protocol.log(f"probe command={command} rlimit_as_mb={limit_mb} marker={os.environ.get('STANDBY_MARKER')}")
    with open("/proc/self/cmdline", encoding="utf-8") as cmdline:
        protocol.log(f"title {cmdline.read().rstrip(chr(0))}")
    protocol.log(f"families not imported: {', '.join(not_imported_types()) or 'none'}")

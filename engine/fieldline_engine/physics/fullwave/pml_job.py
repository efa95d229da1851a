"""Radial PML for uploaded models (built in a later step)."""

from fieldline_engine.errors import EngineError


def attach_radial_pml(model, mesh, media, config):
    raise EngineError("unsupported_analysis", "The radial PML is not available yet.")

"""Every analysis family the engine runs: one registry line each (docs/multiphysics.md §4)."""

from fieldline_engine.core.registry import register
from fieldline_engine.em.em_analyses import EmAnalysis, EmEigenAnalysis, EmTimeAnalysis
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.thermal.analysis import ThermalAnalysis, ThermalTimeAnalysis
from fieldline_engine.vibration.analysis import HarmonicAnalysis, ModalAnalysis

register(EmAnalysis())
register(EmTimeAnalysis())
register(EmEigenAnalysis())
register(StructuralAnalysis())
register(ThermalAnalysis())
register(ThermalTimeAnalysis())
register(ModalAnalysis())
register(HarmonicAnalysis())

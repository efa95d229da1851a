"""Every analysis family the engine runs: one registry line each (docs/multiphysics.md §4). Registered by
name, so a job imports only its own family's modules."""

from fieldline_engine.core.registry import register_lazy

register_lazy("em", "fieldline_engine.em.em_analyses:EmAnalysis")
register_lazy("em-time", "fieldline_engine.em.em_analyses:EmTimeAnalysis")
register_lazy("em-eigen", "fieldline_engine.em.em_analyses:EmEigenAnalysis")
register_lazy("magnetostatic", "fieldline_engine.em.magnetics.analysis:MagnetostaticAnalysis")
register_lazy("structural", "fieldline_engine.structural.analysis:StructuralAnalysis")
register_lazy("thermal", "fieldline_engine.thermal.analysis:ThermalAnalysis")
register_lazy("thermal-time", "fieldline_engine.thermal.analysis:ThermalTimeAnalysis")
register_lazy("modal", "fieldline_engine.vibration.analysis:ModalAnalysis")
register_lazy("harmonic", "fieldline_engine.vibration.analysis:HarmonicAnalysis")
register_lazy("thermal-structural", "fieldline_engine.structural.thermal_stress:ThermalStructuralAnalysis")
register_lazy("eddy-current", "fieldline_engine.em.magnetics.eddy_analysis:EddyCurrentAnalysis")

"""Vibration (docs/vibration.md): natural frequencies and mode shapes (modal), and the steady-state response
to harmonic loads (harmonic), on the structural family's elasticity operator."""

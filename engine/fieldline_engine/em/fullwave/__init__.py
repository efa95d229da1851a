"""Full-wave time-harmonic Maxwell (issue 6): Nédélec elements, wave ports, PML, impedance walls, S-parameters."""

"""Magnetics: coils, magnets and iron (docs/magnetics.md). The magnetostatic analysis lives here; the
eddy-current analysis builds on the same coil paths, materials and air region."""

"""The geometry pipeline: reading uploads (STEP, STL, OBJ, ZIP), checking and repairing surfaces,
tetrahedral meshing (gmsh HXT → gmsh Delaunay → Netgen) and the diagnostics a user can act on."""

"""Linear elasticity shared by the structural and vibration families: the supports-and-loads setup read from the
config, the displacement space with its stiffness and mass, the load vector, and the rigid-body motions the
supports leave free. Here rather than in either family because a family imports another only through a
`Solution` (architecture/import-rules.ts)."""

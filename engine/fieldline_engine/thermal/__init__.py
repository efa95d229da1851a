"""Heat conduction (docs/thermal.md): steady and transient, with convection, radiation, heat sources and
Joule heating from the EM family's DC conduction solve."""

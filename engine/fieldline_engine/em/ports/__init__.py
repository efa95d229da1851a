"""Wave ports: port-face geometry, analytic and numeric modal profiles (shared with the time-domain solver)."""

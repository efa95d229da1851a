"""Family-neutral eigen solver parts: LOBPCG on NumPy blocks, and NGSolve operators applied to them on the free
DOFs. Vibration's modal analysis and the cavity eigenmodes' iterative path share them."""

"""The multiplicative two-level scheme both vertex-coarse preconditioners use (core/h1_two_level.py for
scalar H1, core/elasticity/vertex_coarse.py for the modal path): Gauss–Seidel sweeps on every free DOF around
a coarse correction. Only how the coarse problem is solved differs between them (an AMG V-cycle, an exact
sparse Cholesky), so that is the one thing each passes in."""

import ngsolve as ng


class TwoLevelGaussSeidel(ng.BaseMatrix):
    """x = B b: `sweeps` forward Gauss–Seidel sweeps from x = 0, x += C (b − A x) with C the given coarse solver
    (none: the sweeps alone), then as many backward sweeps — symmetric, so it preconditions CG and LOBPCG."""

    def __init__(self, a: ng.BaseMatrix, free: ng.BitArray, coarse: ng.BaseMatrix | None, sweeps: int = 1):
        super().__init__()
        self.a, self.sweeps, self.coarse = a, sweeps, coarse
        self.smoother = a.CreateSmoother(free)
        self.residual, self.correction = a.CreateColVector(), a.CreateColVector()

    def Height(self) -> int:  # noqa: N802 (NGSolve's BaseMatrix interface)
        return self.a.height

    def Width(self) -> int:  # noqa: N802
        return self.a.width

    def CreateColVector(self):  # noqa: N802
        return self.a.CreateColVector()

    def CreateRowVector(self):  # noqa: N802
        return self.a.CreateColVector()

    def Mult(self, b: ng.BaseVector, x: ng.BaseVector) -> None:  # noqa: N802
        x[:] = 0.0
        for _ in range(self.sweeps):
            self.smoother.Smooth(x, b)
        if self.coarse is not None:
            self.residual.data = b - self.a * x
            self.correction.data = self.coarse * self.residual
            x.data += self.correction
        for _ in range(self.sweeps):
            self.smoother.SmoothBack(x, b)

def test_health_reports_versions_and_working_direct_solvers(engine):
    events = engine("health")
    final = events[-1]
    assert final["event"] == "done", final
    versions = final["result"]["versions"]
    assert versions["ngsolve"] == "6.2.2608"
    assert versions["gmsh"] == "4.15.2"
    solvers = final["result"]["direct_solvers"]
    # The pinned wheel links UMFPACK; sparse Cholesky is NGSolve's own and always present.
    assert "umfpack" in solvers and "sparsecholesky" in solvers
    assert "pardiso" not in solvers or final["result"]["build_flags"]["USE_PARDISO"]

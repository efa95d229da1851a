"""Fieldline's numeric engine: conversion, meshing and electromagnetic solvers (NGSolve/Netgen, gmsh)."""

__version__ = "0.1.0"

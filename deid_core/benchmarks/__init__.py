"""Throughput benchmarks that print figures (never timed tests)."""

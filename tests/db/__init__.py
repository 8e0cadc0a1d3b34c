"""Tests of db/."""

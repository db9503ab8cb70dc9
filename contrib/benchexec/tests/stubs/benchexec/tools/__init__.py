# Stand-in for benchexec.tools (see ../__init__.py).

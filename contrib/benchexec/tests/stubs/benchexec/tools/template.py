# Stand-in for benchexec.tools.template: BaseTool2 with the helpers the
# cpaplay module calls, and the exception for unsupported tasks.
import subprocess


class UnsupportedFeatureException(Exception):
    pass


class BaseTool2:
    def _version_from_tool(self, executable, arg="--version"):
        return subprocess.run([executable, arg], capture_output=True, text=True).stdout.strip()

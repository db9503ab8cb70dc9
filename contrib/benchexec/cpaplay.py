# BenchExec tool-info module for cpaplay, the command-line tool of CPA Playground.
#
# Lets BenchExec run cpaplay on SV-COMP tasks with the standard tooling:
#   benchexec --tool-directory /path/to/target/release cpaplay-bench.xml
# with <benchmark tool="cpaplay"> (put this file on PYTHONPATH as
# benchexec/tools/cpaplay.py, or give its module name with the
# `tool` attribute as BenchExec documents for tool-info modules).
#
# Options of a <rundefinition> are passed to `cpaplay verify` as they are,
# e.g. <option name="--config">octagon-join-cex</option>. Only the
# unreach-call property and the ILP32 data model are supported.

import benchexec.result as result
import benchexec.tools.template


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for cpaplay (CPA Playground's verifier: configurable program
    analysis with value, octagon, predicate and symbolic-execution CPAs).
    """

    # The statistics lines of `cpaplay verify` (name -> label in the output).
    STATISTICS = {
        "reached": "reached set (final size)",
        "created": "states created",
        "steps": "steps (waitlist pops)",
        "refinements": "refinements",
        "solver queries": "solver queries",
        "time": "time",
    }

    def executable(self, tool_locator):
        return tool_locator.find_executable("cpaplay")

    def name(self):
        return "cpaplay"

    def version(self, executable):
        return self._version_from_tool(executable, arg="--version").replace("cpaplay", "").strip()

    def cmdline(self, executable, options, task, rlimits):
        if task.property_file and not task.property_file.endswith("unreach-call.prp"):
            raise benchexec.tools.template.UnsupportedFeatureException(
                "cpaplay checks the unreach-call property only"
            )
        data_model = (task.options or {}).get("data_model", "ILP32")
        return [
            executable,
            "verify",
            task.single_input_file,
            "--data-model",
            data_model,
            *options,
        ]

    def determine_result(self, run):
        for line in run.output:
            if line.startswith("Verification result: TRUE"):
                return result.RESULT_TRUE_PROP
            if line.startswith("Verification result: FALSE"):
                return result.RESULT_FALSE_REACH
            if line.startswith("Verification result: UNKNOWN"):
                return result.RESULT_UNKNOWN
        for line in run.output:
            if ": error:" in line or line.startswith("error: configuration:"):
                return result.RESULT_ERROR + " (" + line.split("error:", 1)[1].strip() + ")"
        if run.exit_code and run.exit_code.value:
            return result.RESULT_ERROR
        return result.RESULT_UNKNOWN

    def get_value_from_output(self, output, identifier):
        """The value of a statistic: `identifier` is a key of STATISTICS
        (or its label), e.g. "created" or "states created"."""
        label = self.STATISTICS.get(identifier, identifier)
        for line in output:
            text = line.strip()
            if text.startswith(label + ":"):
                value = text[len(label) + 1 :].strip()
                return value.split(" ")[0]
        return None

"""The BenchExec tool-info module on recorded `cpaplay verify` output.

Runs with python3's unittest and without BenchExec: `stubs/` holds a
minimal stand-in for the `benchexec` package (only what the module uses).
The outputs in `output/` were recorded from real runs (see docs/witnesses.md).
"""

import os
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "stubs"))
sys.path.insert(0, os.path.dirname(HERE))

import cpaplay  # noqa: E402  (the module under test, found via sys.path above)
import benchexec.result as result  # noqa: E402
import benchexec.tools.template as template  # noqa: E402


def recorded(name):
    with open(os.path.join(HERE, "output", name), encoding="utf-8") as f:
        return f.read().splitlines()


def run_of(name, exit_code=0):
    return types.SimpleNamespace(
        output=recorded(name), exit_code=types.SimpleNamespace(value=exit_code)
    )


class ToolInfoTest(unittest.TestCase):
    def setUp(self):
        self.tool = cpaplay.Tool()

    def test_verdicts(self):
        self.assertEqual(self.tool.determine_result(run_of("true.txt")), result.RESULT_TRUE_PROP)
        self.assertEqual(self.tool.determine_result(run_of("false-confirmed.txt")), result.RESULT_FALSE_REACH)
        self.assertEqual(self.tool.determine_result(run_of("false-unconfirmed.txt")), result.RESULT_FALSE_REACH)
        self.assertEqual(self.tool.determine_result(run_of("unknown.txt")), result.RESULT_UNKNOWN)

    def test_errors_say_what_went_wrong(self):
        r = self.tool.determine_result(run_of("parse-error.txt", exit_code=1))
        self.assertTrue(r.startswith(result.RESULT_ERROR), r)
        self.assertIn("expected `;`", r)
        empty = types.SimpleNamespace(output=[], exit_code=types.SimpleNamespace(value=101))
        self.assertEqual(self.tool.determine_result(empty), result.RESULT_ERROR)

    def test_statistics(self):
        out = recorded("false-confirmed.txt")
        self.assertEqual(self.tool.get_value_from_output(out, "created"), "45")
        self.assertEqual(self.tool.get_value_from_output(out, "states created"), "45")
        self.assertEqual(self.tool.get_value_from_output(out, "refinements"), "0")
        self.assertIsNone(self.tool.get_value_from_output(out, "no such statistic"))

    def test_cmdline(self):
        task = types.SimpleNamespace(
            single_input_file="loop/a.c",
            property_file="../properties/unreach-call.prp",
            options={"language": "C", "data_model": "ILP32"},
        )
        self.assertEqual(
            self.tool.cmdline("/bin/cpaplay", ["--config", "value-cegar"], task, None),
            ["/bin/cpaplay", "verify", "loop/a.c", "--data-model", "ILP32", "--config", "value-cegar"],
        )
        task.property_file = "../properties/termination.prp"
        with self.assertRaises(template.UnsupportedFeatureException):
            self.tool.cmdline("/bin/cpaplay", [], task, None)

    def test_identity(self):
        self.assertEqual(self.tool.name(), "cpaplay")


if __name__ == "__main__":
    unittest.main()

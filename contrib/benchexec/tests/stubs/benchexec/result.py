# Stand-in for benchexec.result: the result strings BenchExec defines.
RESULT_TRUE_PROP = "true"
RESULT_FALSE_REACH = "false(unreach-call)"
RESULT_UNKNOWN = "unknown"
RESULT_ERROR = "ERROR"

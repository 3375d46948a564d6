Feature: process log
  `log` reads a session's retained output by line, with `offset` and `limit`, together with its stdin state and
  input hints. Without a window it shows the last 200 lines. It never consumes the output that `poll` drains.

  Rule: log reads the retained output without consuming pending output

    @LOG-01 @doc
    Scenario: log shows the output and the stdin state, and a later poll still returns the output
      When exec runs "printf 'one\ntwo\nthree\n'; sleep 30" in the background
      And the session's log shows "three"
      And the session log is read
      Then the text contains "one\ntwo\nthree"
      And the detail "stdinWritable" is "false"
      When the session is polled
      Then the text contains "one\ntwo\nthree"

    @LOG-01 @doc
    Scenario: log pages the output with offset and limit
      When exec runs "printf 'one\ntwo\nthree\n'" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 1, "limit": 1}'
      Then the text contains "two"
      And the text does not contain "one"
      And the text does not contain "three"

  Rule: log looks up a running session, then a finished record, of the caller's scope

    @LOG-02 @upstream
    Scenario: an unknown id is not found
      When process is called with '{"action": "log", "sessionId": "tidy-cove"}'
      Then the text is "No session found for tidy-cove"
      And the details contain:
        """
        {"status": "failed", "error": "No session found for tidy-cove"}
        """

    @LOG-02 @upstream
    Scenario: a session of another scope is not found
      When exec is called in scope "alpha" with '{"command": "echo hi", "background": true}'
      And the session finishes
      And process is called in scope "beta" with '{"action": "log", "sessionId": "<id>"}'
      Then the text is "No session found for <id>"

    @LOG-02 @upstream
    Scenario: running sessions and finished records are both found
      When exec runs "echo hi; sleep 2" in the background
      And the session's log shows "hi"
      And the session log is read
      Then the text is "hi"
      And the status is "running"
      When the session finishes
      And the session log is read
      Then the text is "hi"
      And the status is "completed"

  Rule: Without offset and limit log shows the last 200 lines and a paging hint

    @LOG-03 @doc
    Scenario: a log of 230 lines shows the last 200 and a paging hint
      When exec runs "yes x | head -n 230" in the background
      And the session finishes
      And the session log is read
      Then the text matches "^(x\n){199}x(?!\nx)\s*\S"

    @LOG-03 @LOG-04 @upstream
    Scenario: the paging hint of a log of 230 lines mentions both counts
      When exec runs "yes x | head -n 230" in the background
      And the session finishes
      And the session log is read
      Then the text contains "200"
      And the text contains "230"

    @LOG-03 @doc
    Scenario: a log of 200 lines or fewer shows every line
      When exec runs "seq 1 150" in the background
      And the session finishes
      And the session log is read
      Then the text starts with "1\n2\n3\n"
      And the text contains "149\n150"

  Rule: The paging hint is exact and appears only for more than 200 lines in the default window

    @LOG-04 @upstream
    Scenario Outline: a default log of <lines> lines <hint>
      When exec runs "yes x | head -n <lines>" in the background
      And the session finishes
      And the session log is read
      Then the text matches "^(x\n){199}x<suffix>$"

      Examples:
        | lines | hint               | suffix                                                             |
        | 200   | has no hint        |                                                                    |
        | 201   | ends with the hint | \\n\\n\[showing last 200 of 201 lines; pass offset/limit to page\] |
        | 450   | ends with the hint | \\n\\n\[showing last 200 of 450 lines; pass offset/limit to page\] |

    @LOG-04 @upstream
    Scenario Outline: a window <window> never shows the hint
      When exec runs "seq 1 250" in the background
      And the session finishes
      And process is called with:
        """
        {"action": "log", "sessionId": "<id>"<window>}
        """
      Then the text does not contain "showing last"

      Examples:
        | window                       |
        | , "offset": 0                |
        | , "limit": 220               |
        | , "offset": 10, "limit": 230 |

  Rule: With offset and no limit log shows every line from offset to the end

    @LOG-05 @doc
    Scenario: offset without limit is not capped at 200 lines
      When exec runs "seq 1 250" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 10}'
      Then the text starts with "11\n12\n13\n"
      And the text contains "248\n249\n250"
      And the text does not contain "\n10\n"

    @LOG-05 @LOG-08 @upstream
    Scenario: offset without limit returns exactly the lines from offset to the end
      When exec runs "seq 1 250" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 247}'
      Then the text is "248\n249\n250"
      And the details contain:
        """
        {"totalLines": 250}
        """

  Rule: With limit and no offset log shows the last limit lines

    @LOG-06 @legacy-doc
    Scenario: limit alone returns the last lines
      When exec runs "seq 1 10" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "limit": 3}'
      Then the text contains "8\n9\n10"
      And the text does not contain "7"
      And the text does not contain "showing"

    @LOG-06 @LOG-08 @upstream
    Scenario: limit alone returns exactly the last lines, also beyond 200
      When exec runs "seq 1 250" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "limit": 230}'
      Then the text starts with "21\n22\n"
      And the text ends with "\n249\n250"
      And the text does not contain "showing"

  Rule: With offset and limit log shows lines offset to offset + limit - 1

    @LOG-07 @doc
    Scenario: a window in the middle of the output
      When exec runs "seq 1 10" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 2, "limit": 3}'
      Then the text contains "3\n4\n5"
      And the text does not contain "2"
      And the text does not contain "6"

    @LOG-07 @LOG-08 @upstream
    Scenario: a window reaching past the end stops at the last line
      When exec runs "seq 1 10" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 8, "limit": 5}'
      Then the text is "9\n10"

  Rule: Lines are sliced from the LF-normalized aggregate; offset and limit are floored and non-negative

    @LOG-08 @upstream
    Scenario Outline: the output <output> has <lines> lines and shows as <text>
      When exec runs "printf '<output>'" in the background
      And the session finishes
      And the session log is read
      Then the text is "<text>"
      And the details contain:
        """
        {"totalLines": <lines>, "total": <lines>, "totalChars": <chars>}
        """

      Examples:
        | output         | lines | chars | text     |
        | a\\r\\nb\\r\\n | 2     | 6     | a\\nb    |
        | a\\n\\nb\\n    | 3     | 5     | a\\n\\nb |
        | a\\nb          | 2     | 3     | a\\nb    |
        | a\\n\\n        | 2     | 3     | a\\n     |
        | a\\n\\n\\n     | 3     | 4     | a\\n\\n  |

    @LOG-08 @upstream
    Scenario: the slice is not trimmed
      When exec runs "printf '  a  \n\n'" in the background
      And the session finishes
      And the session log is read
      Then the text is "  a  \n"

    @LOG-08 @upstream
    Scenario Outline: the window <window> selects <text>
      When exec runs "seq 1 5" in the background
      And the session finishes
      And process is called with:
        """
        {"action": "log", "sessionId": "<id>"<window>}
        """
      Then the text is "<text>"

      Examples:
        | window                        | text                 |
        | , "offset": 1.7, "limit": 2.9 | 2\n3                 |
        | , "offset": -3, "limit": 2    | 1\n2                 |
        | , "offset": 0                 | 1\n2\n3\n4\n5        |
        | , "offset": 5                 | (no output recorded) |
        | , "offset": 99, "limit": 2    | (no output recorded) |
        | , "offset": 1, "limit": 0     | (no output recorded) |
        | , "offset": 1, "limit": -2    | (no output recorded) |
        | , "limit": 0                  | (no output recorded) |
        | , "offset": 3, "limit": 0.5   | (no output recorded) |

    @LOG-08 @upstream
    Scenario: totalChars counts the aggregate before line endings are normalized
      When exec is called with:
        """
        {"command": "printf 'x\\r\\ny\\r\\nz'", "background": true}
        """
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 1}'
      Then the text is "y\nz"
      And the details contain:
        """
        {"totalLines": 3, "totalChars": 7}
        """

  Rule: An empty slice shows a placeholder

    @LOG-09 @upstream
    Scenario: a silent running session has no output yet
      When exec runs "sleep 30" in the background
      And the session log is read
      Then the text is "(no output yet)"
      And the status is "running"

    @LOG-09 @upstream
    Scenario: a silent finished session has no output recorded
      When exec runs "true" in the background
      And the session finishes
      And the session log is read
      Then the text is "(no output recorded)"
      And the status is "completed"

    @LOG-09 @upstream
    Scenario: a window past the end of a running session has no output yet
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 4}'
      Then the text is "(no output yet)"

  Rule: The log text is the discarded note, the slice, the hint and the stop line or guidance; never the omitted note

    @LOG-10 @upstream
    Scenario: a confirmed stop ends with the stop line
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And the session is killed
      And the session finishes
      And the session log is read
      Then the text is "a\n\nProcess stopped by request (signal SIGTERM)."
      And the status is "completed"

    @LOG-10 @upstream
    Scenario: a timeout ends with the guidance
      When exec is called with '{"command": "echo tick; sleep 60", "timeoutSeconds": 0.5, "background": true}'
      And the session finishes
      And the session log is read
      Then the text is "tick\n\n<G>"
      And the status is "failed"

    @LOG-10 @upstream
    Scenario: a normal exit adds nothing after the slice
      When exec runs "echo a; exit 3" in the background
      And the session finishes
      And the session log is read
      Then the text is "a"

    @LOG-10 @upstream
    Scenario: discarded output is announced, dropped pending output is not
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "yes abcdefghi | head -n 150" in the background
      And the session finishes
      And the session log is read
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\n(abcdefghi\n){99}abcdefghi$"
      And the details contain:
        """
        {"totalChars": 1000, "totalLines": 100, "truncated": true}
        """

    @LOG-10 @upstream
    Scenario: the discarded note precedes the slice and the paging hint
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "1500"
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "seq 1 2000" in the background
      And the session finishes
      And the session log is read
      Then the text starts with "[earlier output was discarded at the retention cap and cannot be recovered]\n\n1801\n1802\n"
      And the text ends with "\n1999\n2000\n\n[showing last 200 of 300 lines; pass offset/limit to page]"
      And the details contain:
        """
        {"truncated": true, "totalChars": 1500, "totalLines": 300}
        """

    @LOG-10 @upstream @pty
    Scenario: a running PTY session waiting for input ends with the input-wait hint
      Given the input-wait threshold option is 1000 ms
      When exec is called with:
        """
        {"command": "printf 'Name? '; read -r name", "pty": true, "background": true}
        """
      And the session's log shows "Name? "
      And the session is waiting for input
      And the session log is read
      Then the text matches "^Name\? \n\nNo new output for [0-9]+s; this session may be waiting for input\. Use process write, send-keys, submit, or paste to provide input\.$"
      And the details contain:
        """
        {"status": "running", "stdinWritable": true, "waitingForInput": true}
        """

  Rule: log details carry the window, the totals and the state of the session

    @LOG-11 @upstream
    Scenario: running log details
      When exec runs "seq 1 2; sleep 30" in the background
      And the session's log shows "2"
      And the session log is read
      Then the text is "1\n2"
      And the details contain:
        """
        {"status": "running", "sessionId": "<id>", "name": "seq 1", "stdinWritable": false, "waitingForInput": false, "output": "1\n2", "total": 2, "totalLines": 2, "totalChars": 4, "truncated": false}
        """
      And the detail "idleMs" is a number
      And the detail "lastOutputAt" is a integer

    @LOG-11 @upstream
    Scenario: finished log details
      When exec runs "seq 1 3" in the background
      And the session finishes
      And the session log is read
      Then the details contain:
        """
        {"status": "completed", "sessionId": "<id>", "exitCode": 0, "exitReason": "exit", "timedOut": false, "noOutputTimedOut": false, "name": "seq 1", "output": "1\n2\n3", "total": 3, "totalLines": 3, "totalChars": 6, "truncated": false}
        """
      And the detail "stdinWritable" is absent
      And the detail "waitingForInput" is absent

    @LOG-11 @upstream
    Scenario: output repeats the whole text, hints included
      When exec runs "seq 1 201" in the background
      And the session finishes
      And the session log is read
      Then the detail "output" equals the text
      And the details contain:
        """
        {"total": 201, "totalLines": 201}
        """

    @LOG-11 @upstream
    Scenario: a killed session is reported as completed in log details
      When exec runs "sleep 30" in the background
      And the session is killed
      And the session finishes
      And the session log is read
      Then the details contain:
        """
        {"status": "completed", "exitReason": "manual-cancel", "exitSignal": "SIGTERM", "timedOut": false}
        """
      And the detail "output" equals the text

  Rule: log pins

    @LOG-12 @upstream
    Scenario: limit 2 of three lines
      When exec runs "printf 'one\ntwo\nthree\n'" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "limit": 2}'
      Then the text is "two\nthree"
      And the detail "totalLines" is "3"

    @LOG-12 @upstream
    Scenario: offset 1, limit 1
      When exec runs "printf 'alpha\nbeta\ngamma\n'" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 1, "limit": 1}'
      Then the text is "beta"

    @LOG-12 @upstream
    Scenario: 201 lines without a window
      When exec runs "seq 1 201 | sed 's/^/line-/'" in the background
      And the session finishes
      And the session log is read
      Then the text starts with "line-2\n"
      And the text ends with "\nline-201\n\n[showing last 200 of 201 lines; pass offset/limit to page]"
      And the text does not contain "line-1\n"

    @LOG-12 @upstream
    Scenario: 201 lines from offset 30
      When exec runs "seq 1 201 | sed 's/^/line-/'" in the background
      And the session finishes
      And process is called with '{"action": "log", "sessionId": "<id>", "offset": 30}'
      Then the text starts with "line-31\nline-32\n"
      And the text ends with "\nline-200\nline-201"
      And the text does not contain "line-30\n"
      And the text does not contain "showing"

  Rule: log reads without side effects

    @LOG-13 @upstream
    Scenario: log does not drain pending output
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And the session log is read
      And the session log is read
      And the session is polled
      Then the text is "a\n\nProcess still running."

    @LOG-13 @upstream
    Scenario: log does not change the poll back-off
      When exec runs "sleep 30" in the background
      And the session is polled
      Then the detail "retryInMs" is "5000"
      When the session log is read
      And the session is polled
      Then the detail "retryInMs" is "10000"
      When the session log is read
      And the session log is read
      And the session is polled
      Then the detail "retryInMs" is "30000"

    @LOG-13 @upstream
    Scenario: log does not acknowledge an exit notification
      When exec runs "echo done" in the background
      And an event is queued for scope "main"
      And the session log is read
      And the events of scope "main" are peeked
      Then 1 event was returned

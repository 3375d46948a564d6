Feature: process poll
  `poll` returns the output a background session produced since the previous poll and reports whether it is still
  running or how it exited. With `timeout` it waits, up to 30 seconds, for new output or the exit.

  Rule: poll returns the new output and reports running or the exit status

    @POLL-01 @doc
    Scenario: each poll returns the output produced since the previous one, then the exit status
      When exec runs "echo one; sleep 2; echo two" in the background
      And the session's log shows "one"
      And the session is polled
      Then the text contains "one"
      And the status is "running"
      When the session finishes
      And the session is polled
      Then the text contains "two"
      And the text does not contain "one"
      And the status is "completed"
      And the detail "exitCode" is "0"

    # The model reads the text, not the details: the text itself says whether the session runs and how it exited.
    @POLL-01 @doc
    Scenario: the text of a poll says that the session is still running, then its exit code
      When exec runs "echo one; sleep 1; exit 7" in the background
      And the session's log shows "one"
      And the session is polled
      Then the text matches "[Rr]unning"
      When the session finishes
      And the session is polled
      Then the text contains "7"
      And the text does not contain "one"

  Rule: poll looks up a running session, then a finished record, of the caller's scope

    @POLL-02 @upstream
    Scenario: an unknown id fails at once, whatever the timeout
      When process is called with '{"action": "poll", "sessionId": "lucky-otter", "timeout": 5000}'
      Then the text is "No session found for lucky-otter"
      And the details contain:
        """
        {"status": "failed", "error": "No session found for lucky-otter"}
        """
      And the call took at most 100 ms

    # Upstream 2026.9.6 echoes an id whole, a 1 MB one too; the reference quotes an id of more than 100 characters by
    # its first 80, an ellipsis and its length, as every text that echoes an input (docs/UPSTREAM.md).
    @POLL-02 @reference
    Scenario Outline: an unknown id of <length> characters is named <how>
      When process is called with '{"action": "poll", "sessionId": "<session>"}'
      Then the text is "No session found for <shown>"

      Examples:
        | length | how                                        | session | shown |
        | 100    | whole                                      | lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-luck | lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-luck |
        | 101    | by its first 80 characters and its length  | lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky | lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-otter-lucky-ot… (101 chars) |

    @POLL-02 @upstream
    Scenario: a session of another scope is not found
      When exec is called in scope "alpha" with '{"command": "echo hi; sleep 30", "background": true}'
      And process is called in scope "beta" with '{"action": "poll", "sessionId": "<id>", "timeout": 3000}'
      Then the text is "No session found for <id>"
      And the call took at most 100 ms

    @POLL-02 @upstream
    Scenario: a finished record is found after its process exited
      When exec runs "echo hi" in the background
      And the session finishes
      And the session is polled
      Then the text is "hi\n\nProcess exited with code 0."

  Rule: Polling a running session drains its pending output

    @POLL-03 @doc
    Scenario: output returned by one poll is not repeated by the next
      When exec runs "echo first; sleep 30" in the background
      And the session's log shows "first"
      And the session is polled
      Then the text contains "first"
      When the session is polled
      Then the text does not contain "first"
      And the status is "running"

  Rule: A running poll shows the notes, the trimmed drained output or "(no new output)", then "Process still running."

    @POLL-04 @upstream
    Scenario: a silent running session
      When exec runs "sleep 30" in the background
      And the session is polled
      Then the text is "(no new output)\n\nProcess still running."

    @POLL-04 @upstream
    Scenario: new output of a running session
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And the session is polled
      Then the text is "a\n\nProcess still running."
      When the session is polled
      Then the text is "(no new output)\n\nProcess still running."

    @POLL-04 @upstream
    Scenario: both streams are returned in arrival order and trimmed
      # Two pipes: their order is the order of arrival only if the engine reads one before the next write. Half a
      # second apart, so a loaded machine (one retry in npm test with 0.1 s) still reads them in turn.
      When exec runs "printf '\n\n  out\n'; sleep 0.5; echo err >&2; sleep 0.5; printf 'out2  \n\n'; sleep 30" in the background
      And the session's log shows "out2"
      And the session is polled
      Then the text is "out\nerr\nout2\n\nProcess still running."

    @POLL-04 @upstream
    Scenario: dropped pending output is announced by the omitted note
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "head -c 1500 /dev/zero | tr '\0' a; sleep 30" in the background
      And the session's log shows "a" 1500 times in a row
      And the session is polled
      Then the text matches "^\[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output\]\n\na{1000}\n\nProcess still running\.$"
      When the session is polled
      Then the text is "(no new output)\n\nProcess still running."

    @POLL-04 @upstream
    Scenario: discarded output is announced before the omitted note
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "head -c 1500 /dev/zero | tr '\0' a; sleep 30" in the background
      And the session's log shows "[earlier output was discarded"
      And the session is polled
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\n\[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output\]\n\na{1000}\n\nProcess still running\.$"
      When the session is polled
      Then the text is "[earlier output was discarded at the retention cap and cannot be recovered]\n\n(no new output)\n\nProcess still running."

  Rule: Running polls carry the aggregate, input state and back-off in their details

    @POLL-05 @upstream
    Scenario: running poll details
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And the session is polled
      Then the details contain:
        """
        {"status": "running", "sessionId": "<id>", "aggregated": "a\n", "name": "echo a;", "stdinWritable": false, "waitingForInput": false, "retryInMs": 5000}
        """
      And the detail "idleMs" is a number
      And the detail "lastOutputAt" is a integer
      When the session is polled
      Then the text is "(no new output)\n\nProcess still running."
      And the detail "aggregated" is "a\n"

  Rule: retryInMs backs off over consecutive empty running polls

    @POLL-06 @upstream
    Scenario: consecutive empty polls report 5000, 10000, 30000, 60000, 60000
      When exec runs "sleep 30" in the background
      And the session is polled
      Then the detail "retryInMs" is "5000"
      When the session is polled
      Then the detail "retryInMs" is "10000"
      When the session is polled
      Then the detail "retryInMs" is "30000"
      When the session is polled
      Then the detail "retryInMs" is "60000"
      When the session is polled
      Then the detail "retryInMs" is "60000"

    @POLL-06 @upstream
    Scenario: a poll with new output reports 5000 and the next empty poll continues at 10000
      When exec runs "echo a; sleep 2; echo b; sleep 30" in the background
      And the session's log shows "a"
      And the session is polled
      Then the detail "retryInMs" is "5000"
      When the session is polled
      Then the detail "retryInMs" is "10000"
      When the session is polled
      Then the detail "retryInMs" is "30000"
      When the session's log shows "b"
      And the session is polled
      Then the text is "b\n\nProcess still running."
      And the detail "retryInMs" is "5000"
      When the session is polled
      Then the detail "retryInMs" is "10000"

    @POLL-06 @upstream
    Scenario: kill restarts the count
      When exec is called with:
        """
        {"command": "trap '' TERM; echo armed; sleep 2", "background": true}
        """
      And the session's log shows "armed"
      And the session is polled
      Then the text is "armed\n\nProcess still running."
      When the session is polled
      And the session is polled
      Then the detail "retryInMs" is "30000"
      When the session is killed
      And the session is polled
      Then the text is "(no new output)\n\nProcess still running."
      And the detail "retryInMs" is "5000"

    @POLL-06 @upstream
    Scenario: a terminal poll has no retryInMs
      When exec runs "echo done" in the background
      And the session finishes
      And the session is polled
      Then the detail "retryInMs" is absent

  Rule: poll waits up to timeout milliseconds, at most 30000, for output or exit

    @POLL-07 @doc
    Scenario: a poll with a timeout waits for it when nothing happens
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 700}'
      Then the status is "running"
      And the call took at least 700 ms
      And the call took at most 700 ms

    @POLL-07 @doc
    Scenario: a waiting poll returns when output arrives
      When exec runs "sleep 0.5; echo hi; sleep 30" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text contains "hi"
      And the status is "running"
      And the call took at most 750 ms

    @POLL-07 @doc
    Scenario: a waiting poll returns when the session exits
      When exec runs "sleep 0.5; echo bye" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text contains "bye"
      And the call took at most 750 ms

    @POLL-07 @doc
    Scenario Outline: a poll with timeout <timeout> returns at once
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"action": "poll", "sessionId": "<id>"<timeout>}
        """
      Then the status is "running"
      And the call took at most 100 ms

      Examples:
        | timeout        |
        |                |
        | , "timeout": 0 |

    @POLL-07 @doc @slow
    Scenario: a timeout above 30000 ms is clamped to 30000 ms
      When exec runs "sleep 60" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 45000}'
      Then the status is "running"
      And the call took at least 30000 ms
      And the call took at most 30000 ms

  Rule: timeout is floored and clamped; digit strings count, other values mean 0

    @POLL-08 @upstream
    Scenario Outline: the timeout <timeout> waits 1500 ms
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"action": "poll", "sessionId": "<id>", "timeout": <timeout>}
        """
      Then the text is "(no new output)\n\nProcess still running."
      And the call took at least 1500 ms
      And the call took at most 1500 ms

      Examples:
        | timeout     |
        | 1500        |
        | 1500.9      |
        | "1500"      |
        | " 1500 "    |
        | "\t1500\\n" |
        | "001500"    |

    @POLL-08 @upstream
    Scenario Outline: the timeout <timeout> means no wait
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"action": "poll", "sessionId": "<id>", "timeout": <timeout>}
        """
      Then the text is "(no new output)\n\nProcess still running."
      And the call took at most 100 ms

      Examples:
        | timeout  |
        | -1500    |
        | 0.9      |
        | "-1500"  |
        | "+1500"  |
        | "1500ms" |
        | "1.5e3"  |
        | "1500.0" |
        | "0x5dc"  |
        | "15 00"  |
        | ""       |
        | "   "    |

  Rule: A waiting poll returns as soon as the session changes or the deadline passes

    @POLL-09 @upstream
    Scenario: completion ends the wait
      When exec runs "sleep 0.5" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "(no new output)\n\nProcess exited with code 0."
      And the call took at least 300 ms
      And the call took at most 750 ms

    @POLL-09 @upstream
    Scenario: new output ends the wait
      When exec runs "sleep 0.5; echo hi; sleep 30" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "hi\n\nProcess still running."
      And the call took at least 300 ms
      And the call took at most 750 ms

    @POLL-09 @upstream
    Scenario: output dropped at the pending cap ends the wait
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "sleep 0.5; head -c 1500 /dev/zero | tr '\0' a; sleep 30" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text starts with "[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output]\n\n"
      And the call took at most 750 ms

    @POLL-09 @upstream
    Scenario: hiding the session with remove ends the wait
      When exec runs "sleep 30" in the background
      And process is started with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      And 300 ms pass
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "Removed session <id> (termination requested)."
      When the started call returns
      Then the text is "No session found for <id>"
      And the call took at most 550 ms

    @POLL-09 @upstream
    Scenario: the deadline ends the wait
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 500}'
      Then the text is "(no new output)\n\nProcess still running."
      And the call took at least 500 ms
      And the call took at most 750 ms

    @POLL-09 @upstream
    Scenario: the abort signal ends the wait
      When exec runs "sleep 30" in the background
      Given the next call is aborted after 300 ms
      When process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the call is rejected with an error named "AbortError"
      And the call took at most 550 ms

    @POLL-09 @upstream @slow
    Scenario: a timeout of 120000 ms returns after 30000 ms
      When exec runs "sleep 60" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 120000}'
      Then the text is "(no new output)\n\nProcess still running."
      And the call took at least 30000 ms
      And the call took at most 30000 ms

  Rule: A poll with a timeout does not wait when there is something to report

    @POLL-10 @upstream
    Scenario: pending output is returned at once
      When exec runs "echo hi; sleep 30" in the background
      And the session's log shows "hi"
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "hi\n\nProcess still running."
      And the call took at most 100 ms

    @POLL-10 @upstream
    Scenario: a finished session is reported at once
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "hi\n\nProcess exited with code 0."
      And the call took at most 100 ms
      When process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "(no new output)\n\nProcess exited with code 0."
      And the call took at most 100 ms

  Rule: Aborting a waiting poll rejects it without consuming output

    @POLL-11 @upstream
    Scenario: an abort during the wait rejects with AbortError
      When exec runs "sleep 30" in the background
      Given the next call is aborted after 300 ms
      When process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the call is rejected with an error named "AbortError"
      And the call took at least 300 ms
      And the call took at most 550 ms
      When the session is polled
      Then the text is "(no new output)\n\nProcess still running."

    @POLL-11 @upstream
    Scenario: an already aborted signal rejects before any output is read
      When exec runs "echo hi; sleep 30" in the background
      And the session's log shows "hi"
      Given the next call's signal is already aborted
      When process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the call is rejected with an error named "AbortError"
      When the session is polled
      Then the text is "hi\n\nProcess still running."

  Rule: A waiting poll on a session hidden by remove reports it as not found

    # Upstream 2026.9.6 keeps a waiting poll waiting after remove until the process exits or the timeout ends; the
    # reference answers it at once (docs/UPSTREAM.md).
    @POLL-12 @reference
    Scenario: the hidden session is not found, even while its process still runs
      When exec is called with:
        """
        {"command": "trap '' TERM; echo x; sleep 3", "background": true}
        """
      And the session's log shows "x"
      And the session is polled
      And process is started with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      And 300 ms pass
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      And the started call returns
      Then the text is "No session found for <id>"
      And the details contain:
        """
        {"status": "failed"}
        """
      And the call took at most 550 ms
      And the session is live

    @POLL-12 @upstream
    Scenario: a waiting poll whose session completes returns the terminal result
      When exec runs "sleep 0.4; exit 5" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "(no new output)\n\nProcess exited with code 5."
      And the call took at most 650 ms

  Rule: Polling a finished session reports its exit status with the output not returned yet

    @POLL-13 @doc
    Scenario: the final poll returns the remaining output and the exit status
      When exec runs "echo one; sleep 2; echo two" in the background
      And the session's log shows "one"
      And the session is polled
      Then the text contains "one"
      When the session finishes
      And the session is polled
      Then the text contains "two"
      And the text does not contain "one"
      And the status is "completed"
      And the detail "exitCode" is "0"

  Rule: A terminal poll returns all unread output in full, once

    @POLL-14 @upstream
    Scenario Outline: <n> unread characters are returned in full by the terminal poll
      When exec runs "head -c <n> /dev/zero | tr '\0' x" in the background
      And the session finishes
      And the session is polled
      Then the text matches "^x{<n>}\n\nProcess exited with code 0\.$"
      When the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

      Examples:
        | n    |
        | 1999 |
        | 2000 |
        | 2001 |

    @POLL-14 @upstream
    Scenario: output drained by a running poll is not repeated by the terminal poll
      When exec runs "echo one; sleep 2; echo two" in the background
      And the session's log shows "one"
      And the session is polled
      Then the text is "one\n\nProcess still running."
      When the session finishes
      And the session is polled
      Then the text is "two\n\nProcess exited with code 0."
      When the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."

  Rule: The terminal text is notes, unread output, the exit line and guidance after a timeout

    @POLL-15 @upstream
    Scenario: a confirmed stop has its own exit line
      When exec runs "sleep 30" in the background
      And the session is killed
      And the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess stopped by request (signal SIGTERM)."

    @POLL-15 @upstream
    Scenario: a timeout appends the guidance
      When exec is called with '{"command": "echo tick; sleep 60", "timeoutSeconds": 0.5, "background": true}'
      And the session finishes
      And the session is polled
      Then the text is "tick\n\nProcess exited with signal SIGTERM.\n\n<G>"
      When the session is polled
      Then the text is "(no new output)\n\nProcess exited with signal SIGTERM.\n\n<G>"

    @POLL-15 @upstream
    Scenario: the discarded and omitted notes precede the output of a terminal poll
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "1000"
      When exec runs "head -c 1500 /dev/zero | tr '\0' a" in the background
      And the session finishes
      And the session is polled
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\n\[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output\]\n\na{1000}\n\nProcess exited with code 0\.$"
      When the session is polled
      Then the text is "[earlier output was discarded at the retention cap and cannot be recovered]\n\n(no new output)\n\nProcess exited with code 0."

  Rule: Terminal details report the exit; a confirmed stop counts as completed

    @POLL-16 @upstream
    Scenario: details of a normal exit
      When exec runs "echo done" in the background
      And the session finishes
      And the session is polled
      Then the details contain:
        """
        {"status": "completed", "sessionId": "<id>", "exitCode": 0, "exitReason": "exit", "timedOut": false, "noOutputTimedOut": false, "name": "echo done", "aggregated": "done\n"}
        """

    @POLL-16 @upstream
    Scenario: details of a confirmed stop
      When exec runs "sleep 30" in the background
      And the session is killed
      And the session finishes
      And the session is polled
      Then the details contain:
        """
        {"status": "completed", "sessionId": "<id>", "exitSignal": "SIGTERM", "exitReason": "manual-cancel", "timedOut": false, "noOutputTimedOut": false, "name": "sleep 30", "aggregated": ""}
        """

    @POLL-16 @upstream
    Scenario: details of a timeout
      When exec is called with '{"command": "sleep 60", "timeoutSeconds": 0.5, "background": true}'
      And the session finishes
      And the session is polled
      Then the details contain:
        """
        {"status": "failed", "exitSignal": "SIGTERM", "exitReason": "overall-timeout", "timedOut": true, "noOutputTimedOut": false}
        """

    @POLL-16 @upstream
    Scenario: details of exit code 126
      Given a non-executable file "tool.sh" containing:
        """
        echo never
        """
      When exec runs "./tool.sh" in the background
      And the session finishes
      And the session is polled
      Then the details contain:
        """
        {"status": "failed", "exitCode": 126, "exitReason": "exit", "timedOut": false}
        """

    # Upstream 2026.9.6 omits an unknown exitCode or exitSignal from finished records; the reference keeps both
    # keys, null when unknown, so every finished record has the same shape (docs/UPSTREAM.md).
    @POLL-16 @LIST-08 @LOG-11 @reference
    Scenario Outline: finished records of a <case> keep the unknown exit field as null in poll, list and log
      When exec is called with '<args>'
      And the session finishes
      And the session is polled
      Then the detail "<unknown>" is "null"
      When the sessions are listed
      Then the detail "sessions.0.<unknown>" is "null"
      When the session log is read
      Then the detail "<unknown>" is "null"

      Examples:
        | case        | args                                                                  | unknown    |
        | normal exit | {"command": "echo done", "background": true}                          | exitSignal |
        | timeout     | {"command": "sleep 60", "timeoutSeconds": 0.5, "background": true}    | exitCode   |

  Rule: Terminal poll pins

    @POLL-17 @upstream
    Scenario Outline: "<command>" ends with "<exit>"
      When exec runs "<command>" in the background
      And the session finishes
      And the session is polled
      Then the text is "<text>"
      And the status is "<status>"

      Examples:
        | command    | exit           | text                                                   | status    |
        | echo done  | code 0         | done\n\nProcess exited with code 0.                    | completed |
        | exit 4     | code 4         | (no new output)\n\nProcess exited with code 4.         | completed |
        | kill -9 $$ | signal SIGKILL | (no new output)\n\nProcess exited with signal SIGKILL. | failed    |
        | exit 127   | code 127       | (no new output)\n\nProcess exited with code 127.       | failed    |

    @POLL-17 @upstream
    Scenario: a finished record is not replayed
      When exec runs "echo done" in the background
      And the session finishes
      And the session is polled
      Then the text is "done\n\nProcess exited with code 0."
      When the session is polled
      Then the text is "(no new output)\n\nProcess exited with code 0."
      And the status is "completed"

    @POLL-17 @upstream
    Scenario: a timed-out session
      When exec is called with '{"command": "echo tick; sleep 60", "timeoutSeconds": 1, "background": true}'
      And the session finishes
      And the session is polled
      Then the text is "tick\n\nProcess exited with signal SIGTERM.\n\n<G>"
      And the status is "failed"
      And the detail "timedOut" is "true"

    @POLL-17 @upstream @executor
    Scenario: a silent session that ended with neither code nor signal
      Given a fake sandbox executor:
        """
        {"exit": {"code": null, "signal": null, "delayMs": 100}}
        """
      When exec is called with '{"command": "job", "host": "sandbox", "background": true}'
      And the session finishes
      And the session is polled
      Then the text is "(no new output)\n\nProcess exited with unknown exit code."
      And the status is "failed"

  Rule: Only a terminal poll acknowledges the exit notification

    @POLL-18 @upstream
    Scenario: a running poll leaves the notification, the terminal poll removes it
      When exec runs "echo a; sleep 2; echo b" in the background
      And the session's log shows "a"
      And the session is polled
      Then the status is "running"
      When an event is queued for scope "main"
      And the events of scope "main" are peeked
      Then 1 event was returned
      When the session is polled
      Then the status is "completed"
      And no event is queued for scope "main"

    @POLL-18 @upstream
    Scenario: a drained notification is not affected by a later terminal poll
      When exec runs "echo done" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned
      When the session is polled
      Then the text is "done\n\nProcess exited with code 0."
      And no event is queued for scope "main"

  Rule: The documented flow: a yielded command is polled after it finished

    @POLL-19 @doc
    Scenario: a command that outlives its yield window is polled to completion
      When exec is called with '{"command": "sleep 1 && echo done", "yieldMs": 300}'
      Then the status is "running"
      And the detail "sessionId" is present
      When the session finishes
      And the session is polled
      Then the text contains "done"
      And the detail "exitCode" is "0"
      And the status is "completed"

  Rule: A session that completes during the wait is reported at once, with guidance after a timeout

    @POLL-20 @upstream
    Scenario: a timeout during the wait returns the terminal result with guidance
      When exec is called with '{"command": "sleep 60", "timeoutSeconds": 0.5, "background": true}'
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "(no new output)\n\nProcess exited with signal SIGTERM.\n\n<G>"
      And the status is "failed"
      And the call took at most 750 ms

    @POLL-20 @upstream
    Scenario: a normal exit during the wait returns the terminal result
      When exec runs "sleep 0.5; exit 3" in the background
      And process is called with '{"action": "poll", "sessionId": "<id>", "timeout": 5000}'
      Then the text is "(no new output)\n\nProcess exited with code 3."
      And the call took at most 750 ms

  Rule: Across polls every captured character is returned exactly once, in arrival order

    @POLL-21 @upstream
    Scenario: polling a steady writer returns each character once
      When exec runs "for i in $(seq 1 40); do printf '%s,' $i; sleep 0.02; done" in the background
      And the session is polled every 60 ms until it has exited
      Then the joined poll outputs are "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,"

    @POLL-21 @upstream
    Scenario: polling a writer on both streams returns the aggregate, once and in order
      When exec runs "for i in $(seq 1 30); do printf 'o%s,' $i; printf 'e%s,' $i >&2; sleep 0.02; done" in the background
      And the session is polled every 50 ms until it has exited
      Then the joined poll outputs equal the aggregate of the last poll
      And the detail "aggregated" has 222 characters

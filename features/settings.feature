Feature: Settings
  The engine resolves its settings once, when it is created: a config key wins over the environment variable, the
  environment variable over its legacy PI_BASH_* alias, and that over the default; then the value is clamped.
  Settings are observed only through behaviour: how long exec waits, how much output is kept, when records expire.

  # Output of known size: `head -c N /dev/zero | tr '\0' Z` prints N characters `Z` (no letter of any note is a Z).

  @SET-01
  Rule: A config value, when present, is used instead of the environment variable

    @doc
    Scenario: tools.exec.backgroundMs wins over OPENCLAW_BASH_YIELD_MS
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "3000"
      And the exec config is '{"backgroundMs": 300}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 300 ms
      And the call took at most 300 ms

    @SET-12 @doc @slow
    Scenario: tools.exec.cleanupMs wins over a longer OPENCLAW_BASH_JOB_TTL_MS
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "3600000"
      And the exec config is '{"cleanupMs": 60000}'
      When exec runs "true" in the background
      And the session finishes
      And the session leaves the list within 60000 ms
      And the session is polled
      Then the call failed, either rejected or with a failed result

    @SET-12 @doc @slow
    Scenario: tools.exec.cleanupMs wins over a shorter OPENCLAW_BASH_JOB_TTL_MS
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "60000"
      And the exec config is '{"cleanupMs": 3600000}'
      When exec runs "true" in the background
      And the session finishes
      And 61000 ms pass
      And the session is polled
      Then the status is "completed"
      And the detail "exitCode" is "0"

  @SET-02
  Rule: Only a finite number is a present config value; unknown config keys are ignored

    @upstream
    Scenario Outline: a backgroundMs of <value> is treated as absent and the environment variable applies
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "1000"
      And the exec config is '{"backgroundMs": <value>}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 1000 ms
      And the call took at most 1000 ms

      Examples:
        | value  |
        | null   |
        | 1e400  |
        | -1e400 |

    # Upstream 2026.9.6's runtime coerces these (Math.max: "300" is 300 ms, true is 1, clamped to 10 ms); its
    # config loader rejects them before any tool exists. The reference treats them as absent (docs/UPSTREAM.md).
    @reference
    Scenario Outline: a backgroundMs of <value> is not coerced: it is absent and the environment variable applies
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "1000"
      And the exec config is '{"backgroundMs": <value>}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 1000 ms
      And the call took at most 1000 ms

      Examples:
        | value  |
        | "300"  |
        | true   |

    @upstream
    Scenario: unknown config keys are ignored
      Given the exec config is '{"someUnknownKey": 5, "backgroundMs": 300, "yieldMs": 5000}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 300 ms
      And the call took at most 300 ms

  @SET-03
  Rule: Settings are resolved once, when the engine is created

    @upstream
    Scenario: changing the config object or process.env after creation changes nothing
      Given the exec config is '{"backgroundMs": 300}'
      When exec is called with '{"command": "sleep 5"}'
      Then the call took at most 300 ms
      Given the exec config is '{"backgroundMs": 3000}'
      When the runner's own process.env variable "OPENCLAW_BASH_YIELD_MS" is set to "3000"
      And the runner's own process.env variable "PI_BASH_YIELD_MS" is set to "3000"
      And exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 300 ms
      And the call took at most 300 ms

  @SET-04 @SET-05
  Rule: An environment value is a valid integer only in plain decimal notation; a valid value is clamped, an invalid one yields the default

    @upstream
    Scenario Outline: OPENCLAW_BASH_MAX_OUTPUT_CHARS "<value>" is valid and sets the cap to <cap>
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "<value>"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\nZ{<cap>}$"

      Examples:
        | value             | cap  |
        | 1500              | 1500 |
        | \x201500\x20      | 1500 |
        | \t1500\x0a        | 1500 |
        | +1500             | 1500 |
        | 0001500           | 1500 |
        | -5                | 1000 |
        | 10                | 1000 |
        | -9007199254740991 | 1000 |

    @upstream
    Scenario Outline: OPENCLAW_BASH_MAX_OUTPUT_CHARS "<value>" is invalid and the default cap applies
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "<value>"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^Z{3000}$"

      Examples:
        | value             |
        | abc               |
        | 1.5               |
        | 1e3               |
        | 1000ms            |
        | 0x3e8             |
        | 1 000             |
        | \x20\x20\x20      |
        | -1000.0           |
        | -9007199254740992 |

    @upstream
    Scenario: a value above the maximum becomes the maximum
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "999999"
      When exec is called with:
        """
        {"command": "head -c 250000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\nZ{200000}$"

    @upstream
    Scenario Outline: OPENCLAW_BASH_YIELD_MS "<value>" is clamped to the 10 ms minimum
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "<value>"
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at most 100 ms

      Examples:
        | value |
        | 5     |
        | 0     |
        | -300  |

    @upstream @slow
    Scenario: OPENCLAW_BASH_YIELD_MS above 120000 is clamped to 120000, not replaced by the default
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "999999"
      When exec is called with '{"command": "sleep 11; echo finished"}'
      Then the status is "completed"
      And the text is "finished"
      And the call took at least 11000 ms

    @SET-12 @upstream
    Scenario: OPENCLAW_BASH_JOB_TTL_MS=5 is clamped to one minute, so the record is still there after 2 s
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "5"
      When exec runs "echo kept" in the background
      And the session finishes
      And 2000 ms pass
      And the session is polled
      Then the text is "kept\n\nProcess exited with code 0."

    @SET-12 @upstream @slow
    Scenario: OPENCLAW_BASH_JOB_TTL_MS=5 lets the record expire after one minute
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "5"
      When exec runs "echo gone" in the background
      And the session finishes
      And the session leaves the list within 60000 ms
      And the session is polled
      Then the text is "No session found for <id>"

  @SET-06
  Rule: PI_BASH_YIELD_MS, PI_BASH_MAX_OUTPUT_CHARS and PI_BASH_JOB_TTL_MS are deprecated aliases used when the primary variable is not set

    @legacy-doc
    Scenario: PI_BASH_YIELD_MS sets the default yield window
      Given the environment variable "PI_BASH_YIELD_MS" is "400"
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 400 ms
      And the call took at most 400 ms

    @legacy-doc
    Scenario: PI_BASH_MAX_OUTPUT_CHARS sets the aggregate cap
      Given the environment variable "PI_BASH_MAX_OUTPUT_CHARS" is "1500"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text contains "discarded"
      And the text has at most 1500 occurrences of "Z"

    @legacy-doc
    Scenario: PI_BASH_MAX_OUTPUT_CHARS is clamped like the primary variable
      Given the environment variable "PI_BASH_MAX_OUTPUT_CHARS" is "10"
      When exec is called with:
        """
        {"command": "head -c 1000 /dev/zero | tr '\\0' Z"}
        """
      Then the text has 1000 occurrences of "Z"
      And the text does not contain "discarded"

    @legacy-doc @both-names
    Scenario: the primary variable wins over its alias
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "400"
      And the environment variable "PI_BASH_YIELD_MS" is "3000"
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at most 400 ms

    @legacy-doc @slow
    Scenario: PI_BASH_JOB_TTL_MS sets the finished-session TTL
      Given the environment variable "PI_BASH_JOB_TTL_MS" is "60000"
      When exec runs "true" in the background
      And the session finishes
      And the session leaves the list within 60000 ms
      And the session is polled
      Then the text contains "No session found"

  @SET-07
  Rule: The alias is consulted only when the primary variable is unset or empty; an invalid primary value yields the default

    @upstream
    Scenario: an empty primary variable falls through to the alias
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is ""
      And the environment variable "PI_BASH_MAX_OUTPUT_CHARS" is "1500"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^\[earlier output was discarded at the retention cap and cannot be recovered\]\n\nZ{1500}$"

    @upstream
    Scenario: an empty primary yield variable falls through to the alias
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is ""
      And the environment variable "PI_BASH_YIELD_MS" is "400"
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 400 ms
      And the call took at most 400 ms

    @upstream
    Scenario: an invalid primary variable yields the default and the alias is not consulted
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "1.5"
      And the environment variable "PI_BASH_MAX_OUTPUT_CHARS" is "1500"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^Z{3000}$"

    @upstream @slow
    Scenario: OPENCLAW_BASH_YIELD_MS=1.5 with PI_BASH_YIELD_MS=50 gives the 10000 ms default
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "1.5"
      And the environment variable "PI_BASH_YIELD_MS" is "50"
      When exec is called with '{"command": "sleep 15"}'
      Then the status is "running"
      And the call took at least 10000 ms
      And the call took at most 10000 ms

    @upstream @slow
    Scenario: OPENCLAW_BASH_JOB_TTL_MS=abc ignores PI_BASH_JOB_TTL_MS and keeps the 30-minute default
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "abc"
      And the environment variable "PI_BASH_JOB_TTL_MS" is "5"
      When exec runs "echo kept" in the background
      And the session finishes
      And 61000 ms pass
      And the session is polled
      Then the text is "kept\n\nProcess exited with code 0."

    @upstream @slow
    Scenario: an empty OPENCLAW_BASH_JOB_TTL_MS falls through to PI_BASH_JOB_TTL_MS
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is ""
      And the environment variable "PI_BASH_JOB_TTL_MS" is "5"
      When exec runs "echo gone" in the background
      And the session finishes
      And the session leaves the list within 60000 ms
      And the session is polled
      Then the text is "No session found for <id>"

  @SET-08
  Rule: The pending cap and the input-wait threshold have no PI_* alias

    @upstream
    Scenario: PI_BASH_PENDING_MAX_OUTPUT_CHARS has no effect
      Given the environment variable "PI_BASH_PENDING_MAX_OUTPUT_CHARS" is "1000"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" 3000 times in a row
      And the session is polled
      Then the text matches "^Z{3000}\n\nProcess still running\.$"

    @upstream @pty
    Scenario: PI_PROCESS_INPUT_WAIT_IDLE_MS has no effect
      Given the environment variable "PI_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec runs "sleep 30" in a pty in the background
      And 2000 ms pass
      And the session is polled
      Then the status is "running"
      And the detail "waitingForInput" is "false"

  @SET-09
  Rule: The default yield window is tools.exec.backgroundMs, else OPENCLAW_BASH_YIELD_MS, else 10000, clamped to 10–120000

    @doc
    Scenario: OPENCLAW_BASH_YIELD_MS sets the default yield window
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "400"
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 400 ms
      And the call took at most 400 ms

    @doc
    Scenario: tools.exec.backgroundMs sets the default yield window
      Given the exec config is '{"backgroundMs": 400}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at least 400 ms
      And the call took at most 400 ms

    @doc
    Scenario: a backgroundMs of 0 becomes the 10 ms minimum
      Given the exec config is '{"backgroundMs": 0}'
      When exec is called with '{"command": "sleep 5"}'
      Then the status is "running"
      And the call took at most 100 ms

    @doc
    Scenario: a command shorter than the window still returns in the foreground
      Given the environment variable "OPENCLAW_BASH_YIELD_MS" is "2000"
      When exec is called with '{"command": "sleep 0.5; echo finished"}'
      Then the status is "completed"
      And the text contains "finished"

    @doc @slow
    Scenario: without config or environment the yield window is 10000 ms
      When exec is called with '{"command": "sleep 15"}'
      Then the status is "running"
      And the call took at least 10000 ms
      And the call took at most 10000 ms

    @doc @slow
    Scenario: a backgroundMs above 120000 is clamped to 120000, not replaced by the default
      Given the exec config is '{"backgroundMs": 200000}'
      When exec is called with '{"command": "sleep 11; echo finished"}'
      Then the status is "completed"
      And the text contains "finished"
      And the call took at least 11000 ms

  @SET-10
  Rule: The aggregate cap is OPENCLAW_BASH_MAX_OUTPUT_CHARS, default 200000, clamped to 1000–200000

    @doc
    Scenario: by default 200000 characters are retained without discarding anything
      When exec is called with:
        """
        {"command": "head -c 200000 /dev/zero | tr '\\0' Z"}
        """
      Then the text has 200000 occurrences of "Z"
      And the text does not contain "discarded"

    @doc
    Scenario: by default the 200001st character makes earlier output discarded
      When exec is called with:
        """
        {"command": "head -c 200001 /dev/zero | tr '\\0' Z"}
        """
      Then the text contains "discarded"
      And the text has at most 200000 occurrences of "Z"

    @doc
    Scenario: OPENCLAW_BASH_MAX_OUTPUT_CHARS lowers the cap
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "2000"
      When exec is called with:
        """
        {"command": "head -c 2000 /dev/zero | tr '\\0' Z"}
        """
      Then the text has 2000 occurrences of "Z"
      And the text does not contain "discarded"
      When exec is called with:
        """
        {"command": "head -c 2001 /dev/zero | tr '\\0' Z"}
        """
      Then the text contains "discarded"
      And the text has at most 2000 occurrences of "Z"

    @doc
    Scenario: a cap below 1000 is raised to 1000
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "10"
      When exec is called with:
        """
        {"command": "head -c 1000 /dev/zero | tr '\\0' Z"}
        """
      Then the text has 1000 occurrences of "Z"
      And the text does not contain "discarded"
      When exec is called with:
        """
        {"command": "head -c 1001 /dev/zero | tr '\\0' Z"}
        """
      Then the text contains "discarded"
      And the text has at most 1000 occurrences of "Z"

    @doc
    Scenario: a cap above 200000 is lowered to 200000
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "999999"
      When exec is called with:
        """
        {"command": "head -c 200001 /dev/zero | tr '\\0' Z"}
        """
      Then the text contains "discarded"
      And the text has at most 200000 occurrences of "Z"

    @SET-10 @RES-04 @RES-08 @upstream
    Scenario Outline: with a cap of <cap>, <written> characters give exactly the retained output<statement>
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "<cap>"
      When exec is called with:
        """
        {"command": "head -c <written> /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "<pattern>"

      Examples:
        | cap    | written | statement                 | pattern                                  |
        | 2000   | 2000    |                           | ^Z{2000}$                                |
        | 2000   | 2001    | after the discard statement | ^\\[[^\\n]*discarded[^\\n]*\\]\\n\\s*Z{2000}$ |
        | 10     | 1001    | after the discard statement | ^\\[[^\\n]*discarded[^\\n]*\\]\\n\\s*Z{1000}$ |

  @SET-11
  Rule: The pending cap is OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS, default 30000, clamped to 1000–200000 and to the aggregate cap, per stream

    @doc
    Scenario Outline: a poll of <written> unread characters returns <returned> of them by default
      When exec is called with:
        """
        {"command": "head -c <written> /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" <written> times in a row
      And the session is polled
      Then the text matches "^[^Z]*Z{<returned>}[^Z]*$"

      Examples:
        | written | returned |
        | 30000   | 30000    |
        | 30001   | 30000    |
        | 40000   | 30000    |

    @doc
    Scenario: OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS lowers the pending cap
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "1500"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" 3000 times in a row
      And the session is polled
      Then the text matches "^[^Z]*Z{1500}[^Z]*$"

    @doc
    Scenario: the pending cap applies to stdout and stderr separately
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "1000"
      When exec is called with:
        """
        {"command": "head -c 1500 /dev/zero | tr '\\0' Z; sleep 0.3; head -c 1500 /dev/zero | tr '\\0' Y >&2; sleep 30", "background": true}
        """
      And the session's log shows "Y" 1500 times in a row
      And the session is polled
      Then the text matches "^[^ZY]*Z{1000}Y{1000}[^ZY]*$"

    @doc
    Scenario Outline: a pending cap of <value> is clamped to <returned>
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "<value>"
      When exec is called with:
        """
        {"command": "head -c <written> /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" <returned> times in a row
      And the session is polled
      Then the text matches "^[^Z]*Z{<returned>}[^Z]*$"

      Examples:
        | value  | written | returned |
        | 10     | 1500    | 1000     |
        | 999999 | 250000  | 200000   |

    @doc
    Scenario: the pending cap is limited to the aggregate cap
      Given the environment variable "OPENCLAW_BASH_MAX_OUTPUT_CHARS" is "2000"
      And the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "5000"
      When exec is called with:
        """
        {"command": "head -c 4000 /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" 2000 times in a row
      And the session is polled
      Then the text matches "^[^Z]*Z{2000}[^Z]*$"

    @SET-05 @upstream
    Scenario: an invalid pending cap yields the 30000 default
      Given the environment variable "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS" is "5k"
      When exec is called with:
        """
        {"command": "head -c 40000 /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" 40000 times in a row
      And the session is polled
      Then the text matches "^\[earlier output is omitted from this poll; use action=log with offset and limit to inspect retained output\]\n\nZ{30000}\n\nProcess still running\.$"

  @SET-12
  Rule: The finished-session TTL is tools.exec.cleanupMs, else OPENCLAW_BASH_JOB_TTL_MS, else 1800000, clamped to 60000–10800000

    @doc @slow
    Scenario: OPENCLAW_BASH_JOB_TTL_MS of one minute lets a finished record expire
      Given the environment variable "OPENCLAW_BASH_JOB_TTL_MS" is "60000"
      When exec runs "echo done" in the background
      And the session finishes
      And 2000 ms pass
      And the session is polled
      Then the status is "completed"
      When the session leaves the list within 58000 ms
      And the session is polled
      Then the call failed, either rejected or with a failed result

    @doc
    Scenario: with the default TTL a finished record stays available
      When exec runs "echo done" in the background
      And the session finishes
      And 3000 ms pass
      And the session is polled
      Then the status is "completed"
      And the text contains "done"

  @SET-13
  Rule: tools.exec.cleanupMs of 0 or below means the one-minute minimum, neither the default nor no expiry

    @upstream
    Scenario Outline: a cleanupMs of <value> does not expire the record at once
      Given the exec config is '{"cleanupMs": <value>}'
      When exec runs "echo kept" in the background
      And the session finishes
      And 2000 ms pass
      And the session is polled
      Then the text is "kept\n\nProcess exited with code 0."

      Examples:
        | value |
        | 0     |
        | -5    |

    @upstream @slow
    Scenario Outline: a cleanupMs of <value> expires the record after one minute
      Given the exec config is '{"cleanupMs": <value>}'
      When exec runs "echo gone" in the background
      And the session finishes
      And the session leaves the list within 60000 ms
      And the session is polled
      Then the text is "No session found for <id>"

      Examples:
        | value |
        | 0     |
        | -5    |

  @SET-14
  Rule: The input-wait idle threshold is OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS, default 15000

    @doc @pty
    Scenario: OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS sets the threshold
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec runs "sleep 30" in a pty in the background
      And the session is waiting for input within 1000 ms
      And the session is polled
      Then the detail "waitingForInput" is "true"

    @doc @pty
    Scenario: by default a session silent for 2 s is not flagged
      When exec runs "sleep 30" in a pty in the background
      And 2000 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "false"

    @doc @pty @slow
    Scenario: by default a session silent for 15 s is flagged
      When exec runs "sleep 60" in a pty in the background
      And the session is waiting for input within 15000 ms
      And the session is polled
      Then the detail "waitingForInput" is "true"

  @SET-15
  Rule: The input-wait threshold is clamped to 1000–600000; the engine option inputWaitIdleMs wins over the environment

    @upstream @pty
    Scenario Outline: OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS "<value>" is raised to 1000 ms
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "<value>"
      When exec runs "sleep 30" in a pty in the background
      And 400 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "false"
      When the session is waiting for input within 1000 ms
      And the session is polled
      Then the detail "waitingForInput" is "true"

      Examples:
        | value |
        | 10    |
        | -5    |

    @upstream @pty
    Scenario: the engine option wins over the environment variable
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "600000"
      And the input-wait threshold option is 1000 ms
      When exec runs "sleep 30" in a pty in the background
      And the session is waiting for input within 1000 ms
      And the session is polled
      Then the detail "waitingForInput" is "true"

    @upstream @pty
    Scenario Outline: an engine option of <value> ms is raised to 1000 ms
      Given the input-wait threshold option is <value> ms
      When exec runs "sleep 30" in a pty in the background
      And 400 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "false"
      When the session is waiting for input within 1000 ms
      And the session is polled
      Then the detail "waitingForInput" is "true"

      Examples:
        | value |
        | 10    |
        | -5    |

  @SET-16
  Rule: tools.exec.timeoutSeconds, default 1800, is the timeout of every exec call that does not pass its own

    @doc
    Scenario: a foreground command is terminated after the configured timeout
      Given the exec config is '{"timeoutSeconds": 1}'
      When exec is called with '{"command": "sleep 5", "yieldMs": 4000}'
      Then the status is "failed"
      And the detail "timedOut" is "true"
      And the text contains "timed out"
      And the call took at least 1000 ms
      And the call took at most 1000 ms

    @doc
    Scenario: a background command inherits the configured timeout
      Given the exec config is '{"timeoutSeconds": 1}'
      When exec runs "sleep 5" in the background
      And the session is polled with timeout 5000
      Then the call took at least 500 ms
      And the call took at most 1000 ms
      And the session is not live

    @doc
    Scenario: a per-call timeoutSeconds wins over the configured one
      Given the exec config is '{"timeoutSeconds": 0.5}'
      When exec is called with '{"command": "sleep 1; echo finished", "timeoutSeconds": 5}'
      Then the status is "completed"
      And the text contains "finished"

  @SET-17
  Rule: Only a finite configured timeout above 0 is used; anything else means 1800 seconds

    @upstream
    Scenario Outline: a configured timeoutSeconds of <value> means 1800 seconds, not an immediate timeout
      Given the exec config is '{"timeoutSeconds": <value>}'
      When exec is called with '{"command": "sleep 1; echo finished"}'
      Then the status is "completed"
      And the text is "finished"

      Examples:
        | value  |
        | 0      |
        | -1     |
        | 1e400  |
        | -1e400 |

      @SET-02
      Examples: not a number, so absent
        | value  |
        | "0.5"  |
        | true   |

  @SET-18
  Rule: tools.exec.timeoutSec is a deprecated alias used only when timeoutSeconds is not present

    @legacy-doc
    Scenario: timeoutSec sets the default timeout
      Given the exec config is '{"timeoutSec": 0.5}'
      When exec is called with '{"command": "sleep 5", "yieldMs": 4000}'
      Then the status is "failed"
      And the detail "timedOut" is "true"
      And the text contains "timed out"
      And the call took at least 500 ms
      And the call took at most 500 ms

    @legacy-doc @both-names
    Scenario: timeoutSeconds wins over timeoutSec
      Given the exec config is '{"timeoutSeconds": 1.5, "timeoutSec": 0.5}'
      When exec is called with '{"command": "sleep 5", "yieldMs": 4000}'
      Then the status is "failed"
      And the detail "timedOut" is "true"
      And the call took at least 1500 ms
      And the call took at most 1500 ms

    @SET-17 @upstream
    Scenario: timeoutSeconds 0 still wins over timeoutSec and means 1800 seconds
      Given the exec config is '{"timeoutSeconds": 0, "timeoutSec": 0.5}'
      When exec is called with '{"command": "sleep 1; echo finished"}'
      Then the status is "completed"
      And the text is "finished"

    @SET-02 @reference
    Scenario: a timeoutSeconds that is not a number is absent, so timeoutSec applies
      Given the exec config is '{"timeoutSeconds": "30", "timeoutSec": 0.5}'
      When exec is called with '{"command": "sleep 5", "yieldMs": 4000}'
      Then the text starts with "Command timed out after 0.5 seconds."

    @SET-17 @upstream
    Scenario: a timeoutSec of 0 means 1800 seconds
      Given the exec config is '{"timeoutSec": 0}'
      When exec is called with '{"command": "sleep 1; echo finished"}'
      Then the text is "finished"

  @SET-19
  Rule: tools.exec.notifyOnExit defaults to true

    @doc
    Scenario: without config a finished background session enqueues an exit event
      When exec runs "echo hi" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned

  @SET-20
  Rule: Only the boolean false disables exit notifications

    @upstream
    Scenario Outline: notifyOnExit <value> leaves notifications enabled
      Given the exec config is '{"notifyOnExit": <value>}'
      When exec runs "echo hi" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned
      And event 1 has text:
        """
        Exec completed (<id8>, code 0) :: hi
        """

      Examples:
        | value   |
        | null    |
        | 0       |
        | "false" |
        | true    |

    @upstream
    Scenario: notifyOnExit false disables them
      Given the exec config is '{"notifyOnExit": false}'
      When exec runs "echo hi" in the background
      And the session finishes
      And 300 ms pass
      Then no event is queued for scope "main"
      And 0 wake requests were observed

  @SET-21
  Rule: tools.exec.notifyOnExitEmptySuccess defaults to false

    @doc
    Scenario: without config a silent successful background run is not notified
      When exec runs "true" in the background
      And the session finishes
      And 300 ms pass
      Then no event is queued for scope "main"

    @doc
    Scenario: with notifyOnExitEmptySuccess true it is notified
      Given the exec config is '{"notifyOnExitEmptySuccess": true}'
      When exec runs "true" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned

  @SET-22
  Rule: Only the boolean true enables notifications for silent successful runs

    @upstream
    Scenario Outline: notifyOnExitEmptySuccess <value> leaves them disabled
      Given the exec config is '{"notifyOnExitEmptySuccess": <value>}'
      When exec runs "true" in the background
      And the session finishes
      And 300 ms pass
      Then no event is queued for scope "main"

      Examples:
        | value  |
        | "true" |
        | 1      |
        | null   |
        | false  |

    @upstream
    Scenario: notifyOnExitEmptySuccess true enqueues the pinned event
      Given the exec config is '{"notifyOnExitEmptySuccess": true}'
      When exec runs "true" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned
      And event 1 has text:
        """
        Exec completed (<id8>, code 0)
        """

  @SET-23
  Rule: tools.exec.pathPrepend entries are placed, in order, before the inherited PATH

    # Upstream 2026.9.6 also merges a login shell's PATH (`sh -l`) into every command, so its PATH depends on the
    # machine's profile (SPEC §14: out of scope); the reference uses exactly pathPrepend and the inherited PATH (docs/UPSTREAM.md).
    @reference
    Scenario: non-empty entries come first, joined with colons
      Given the environment variable "PATH" is "/usr/bin:/bin"
      And the exec config is '{"pathPrepend": ["/opt/first", "", "/opt/second"]}'
      When exec runs "echo $PATH"
      Then the text is "/opt/first:/opt/second:/usr/bin:/bin"

    @reference
    Scenario: without pathPrepend PATH is the inherited one
      Given the environment variable "PATH" is "/usr/bin:/bin"
      When exec runs "echo $PATH"
      Then the text is "/usr/bin:/bin"

    @reference
    Scenario: an entry that is already in the inherited PATH moves to the front
      Given the environment variable "PATH" is "/usr/bin:/bin"
      And the exec config is '{"pathPrepend": ["/bin"]}'
      When exec runs "echo $PATH"
      Then the text matches "^/bin:/usr/bin(:/bin)?$"

    @reference @pty
    Scenario: PTY commands get the same PATH
      Given the environment variable "PATH" is "/usr/bin:/bin"
      And the exec config is '{"pathPrepend": ["/opt/first"]}'
      When exec is called with '{"command": "echo $PATH", "pty": true}'
      Then the text is "/opt/first:/usr/bin:/bin"

  @SET-24
  Rule: There is no config key for the aggregate cap, the pending cap or the input-wait threshold

    @upstream
    Scenario: config keys naming the output caps are ignored
      Given the exec config is:
        """
        {"maxOutputChars": 1000, "pendingMaxOutputChars": 1000, "outputMaxChars": 1000, "pendingOutputMaxChars": 1000}
        """
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z"}
        """
      Then the text matches "^Z{3000}$"
      When exec is called with:
        """
        {"command": "head -c 3000 /dev/zero | tr '\\0' Z; sleep 30", "background": true}
        """
      And the session's log shows "Z" 3000 times in a row
      And the session is polled
      Then the text matches "^Z{3000}\n\nProcess still running\.$"

    @upstream @pty
    Scenario: a config key naming the input-wait threshold is ignored
      Given the exec config is '{"inputWaitIdleMs": 1000, "inputWaitIdleMS": 1000}'
      When exec runs "sleep 30" in a pty in the background
      And 2000 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "false"

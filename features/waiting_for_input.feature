Feature: Sessions that may be waiting for input
  `list`, `poll` and `log` flag a running session as `waitingForInput` when its input is still writable and it has
  printed nothing for the input-wait threshold (default 15000 ms; most scenarios here set 1000 ms). Only pty
  sessions have writable input, so only they can be flagged; any silent pty program is.

  @WAIT-01
  Rule: a session is waiting for input while its stdin is writable and it was silent for the threshold

    @doc @pty
    Scenario: a silent pty prompt is flagged by list, log and poll once the threshold has passed
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec is called with:
        """
        {"command": "printf 'Name? '; read -r name; echo \"hi $name\"", "pty": true, "background": true}
        """
      And the session's log shows "Name? "
      And the session is polled
      Then the detail "waitingForInput" is "false"
      When the session is waiting for input
      And the sessions are listed
      Then the detail "sessions.0.waitingForInput" is "true"
      When the session log is read
      Then the detail "waitingForInput" is "true"
      When the session is polled
      Then the detail "waitingForInput" is "true"

    @doc @pty
    Scenario: a pty session that keeps printing is not flagged
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec is called with '{"command": "while :; do echo tick; sleep 0.2; done", "pty": true, "background": true}'
      And 1500 ms pass
      And the session is polled
      Then the detail "stdinWritable" is "true"
      And the detail "waitingForInput" is "false"

    @doc @pty
    Scenario: a silent pty session whose input was closed is not flagged
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec is called with '{"command": "sleep 60", "pty": true, "background": true}'
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "", "eof": true}'
      And 1200 ms pass
      And the session is polled
      Then the detail "stdinWritable" is "false"
      And the detail "waitingForInput" is "false"

    @doc @pty @slow
    Scenario: with the default threshold a silent pty session is flagged after 15 seconds, not before
      When exec is called with '{"command": "sleep 60", "pty": true, "background": true}'
      And 14000 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "false"
      When 1500 ms pass
      And the session is polled
      Then the detail "waitingForInput" is "true"

  @WAIT-02
  Rule: idleMs counts from the raw arrival of the last output chunk, or from the start when there was none

    @upstream
    Scenario: a silent session has been idle since it started
      When exec is called with '{"command": "sleep 60", "background": true}'
      And 300 ms pass
      And the sessions are listed
      Then the detail "sessions.0.lastOutputAt" is at most 50 ms after the detail "sessions.0.startedAt"
      And the detail "sessions.0.idleMs" is between 300 and 5000

    @upstream
    Scenario Outline: output that arrives late (<output>) restarts the idle time
      When exec is called with:
        """
        {"command": "sleep 0.8; <command>; sleep 60", "background": true}
        """
      And 1200 ms pass
      And the sessions are listed
      Then the detail "sessions.0.idleMs" is between 0 and 900
      When the session is polled
      Then the detail "idleMs" is between 0 and 900

      Examples:
        | output                                 | command             |
        | a line                                 | echo hi             |
        | an escape sequence that sanitizes away | printf '\u001b[0m' |

  @WAIT-03
  Rule: waitingForInput is stdinWritable and idleMs at or above the threshold

    @upstream @pty
    Scenario: a pty session is not flagged before the threshold and flagged after it
      Given the input-wait threshold option is 3000 ms
      When exec is called with '{"command": "sleep 60", "pty": true, "background": true}'
      And 300 ms pass
      And the session is polled
      Then the details contain:
        """
        {"stdinWritable": true, "waitingForInput": false}
        """
      And the detail "idleMs" is between 300 and 2999
      When 3000 ms pass
      And the session is polled
      Then the details contain:
        """
        {"stdinWritable": true, "waitingForInput": true}
        """
      And the detail "idleMs" is between 3000 and 8000

    @upstream
    Scenario: a silent session without writable stdin is never flagged
      Given the input-wait threshold option is 1000 ms
      When exec is called with '{"command": "sleep 60", "background": true}'
      And 1200 ms pass
      And the session is polled
      Then the details contain:
        """
        {"stdinWritable": false, "waitingForInput": false}
        """
      And the detail "idleMs" is between 1000 and 5000

  @WAIT-04
  Rule: the input-wait fields belong to running list entries, running polls and running logs only

    @upstream
    Scenario Outline: <field> is reported for a running session, not by exec
      When exec is called with '{"command": "sleep 60", "background": true}'
      Then the detail "<field>" is absent
      When the sessions are listed
      Then the detail "sessions.0.<field>" is present
      When the session is polled
      Then the detail "<field>" is present
      When the session log is read
      Then the detail "<field>" is present

      Examples:
        | field           |
        | stdinWritable   |
        | waitingForInput |
        | idleMs          |
        | lastOutputAt    |

    @upstream
    Scenario Outline: <field> is not reported for a finished session
      When exec is called with '{"command": "echo done", "background": true}'
      And the session finishes
      And the sessions are listed
      Then the detail "sessions.0.<field>" is absent
      When the session log is read
      Then the detail "<field>" is absent
      When the session is polled
      Then the detail "<field>" is absent

      Examples:
        | field           |
        | stdinWritable   |
        | waitingForInput |
        | idleMs          |
        | lastOutputAt    |

    @upstream
    Scenario: a foreground exec result has no input-wait fields
      When exec is called with '{"command": "echo done"}'
      Then the detail "stdinWritable" is absent
      And the detail "waitingForInput" is absent
      And the detail "idleMs" is absent
      And the detail "lastOutputAt" is absent

  @WAIT-05
  Rule: a waiting session gets the input-wait hint: instead of "Process still running." in poll, at the end of log

    @upstream @pty
    Scenario: poll replaces the running line with the hint, log appends it
      Given the input-wait threshold option is 1000 ms
      When exec is called with:
        """
        {"command": "printf 'Name? '; read -r name; echo \"hi $name\"", "pty": true, "background": true}
        """
      And the session's log shows "Name? "
      And the session is waiting for input
      And the session is polled
      Then the text matches:
        """
        ^Name\?\n\nNo new output for [12]s; this session may be waiting for input\. Use process write, send-keys, submit, or paste to provide input\.$
        """
      When the session is polled
      Then the text matches:
        """
        ^\(no new output\)\n\nNo new output for [12]s; this session may be waiting for input\. Use process write, send-keys, submit, or paste to provide input\.$
        """
      When the session log is read
      Then the text matches:
        """
        ^Name\? \n\nNo new output for [12]s; this session may be waiting for input\. Use process write, send-keys, submit, or paste to provide input\.$
        """

    @upstream @pty
    Scenario: before the threshold poll still says the process is running
      Given the input-wait threshold option is 1000 ms
      When exec is called with '{"command": "sleep 60", "pty": true, "background": true}'
      And the session is polled
      Then the text is "(no new output)\n\nProcess still running."
      When the session log is read
      Then the text is "(no output yet)"

  @WAIT-06
  Rule: the list line of a waiting session carries [input-wait] after its runtime

    @upstream @pty
    Scenario: a waiting prompt is marked in the list
      Given the input-wait threshold option is 1000 ms
      When exec is called with:
        """
        {"command": "printf 'Name? '; read -r name; echo \"hi $name\"", "pty": true, "background": true}
        """
      And the session's log shows "Name? "
      And the session is waiting for input
      And the sessions are listed
      Then the text matches "^<id> running   [12]s \[input-wait\] :: printf 'Name\? ';$"

    @upstream
    Scenario: a silent session without writable stdin is not marked
      Given the input-wait threshold option is 1000 ms
      When exec is called with '{"command": "sleep 60", "background": true}'
      And 1200 ms pass
      And the sessions are listed
      Then the text matches "^<id> running   [12]s :: sleep 60$"

  @WAIT-07
  Rule: only pty sessions can wait for input, and any silent pty program is flagged

    @upstream
    Scenario: a plain command that tries to read is never flagged, its stdin is closed
      Given the input-wait threshold option is 1000 ms
      When exec is called with '{"command": "read -r answer; echo read:$?; sleep 60", "background": true}'
      And 1200 ms pass
      And the session is polled
      Then the text is "read:1\n\nProcess still running."
      And the details contain:
        """
        {"stdinWritable": false, "waitingForInput": false}
        """

    @upstream @pty
    Scenario: a silent pty program that reads nothing is flagged all the same
      Given the input-wait threshold option is 1000 ms
      When exec is called with '{"command": "sleep 60", "pty": true, "background": true}'
      And the session is waiting for input
      And the sessions are listed
      Then the detail "sessions.0.waitingForInput" is "true"

  @WAIT-08
  Rule: log shows the transcript, the stdin state and the input-wait hint together

    @doc @pty
    Scenario: an agent inspects an interactive prompt with log before answering it
      Given the environment variable "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS" is "1000"
      When exec is called with:
        """
        {"command": "printf 'Continue? [y/N] '; read -r answer; echo \"answer: $answer\"", "pty": true, "background": true}
        """
      And the session is waiting for input
      And process is called with '{"action": "log", "sessionId": "<id>"}'
      Then the text contains "Continue? [y/N]"
      And the text contains "input"
      And the detail "stdinWritable" is "true"
      And the detail "waitingForInput" is "true"
      When process is called with '{"action": "write", "sessionId": "<id>", "data": "y\n"}'
      And the session finishes
      And the session is polled
      Then the text contains "answer: y"

  @WAIT-09
  Rule: the input-wait flow of a prompt, end to end

    @upstream @pty
    Scenario: a prompt is flagged, answered with write, and finishes
      Given the input-wait threshold option is 1000 ms
      When exec is called with:
        """
        {"command": "printf 'Name? '; read -r name; echo \"hi $name\"", "pty": true, "background": true}
        """
      And the session's log shows "Name? "
      And the session is waiting for input
      And the session is polled
      Then the text starts with "Name?\n\nNo new output for "
      And the text ends with "; this session may be waiting for input. Use process write, send-keys, submit, or paste to provide input."
      And the detail "waitingForInput" is "true"
      When the sessions are listed
      Then the text contains " [input-wait] :: "
      When process is called with '{"action": "write", "sessionId": "<id>", "data": "bob\n"}'
      Then the text is "Wrote 4 bytes to session <id>."
      When the session finishes
      And the session is polled
      Then the text contains "hi bob"

Feature: The session registry
  Sessions live in the memory of one engine. Only backgrounded sessions are listed and kept after they exit;
  finished records expire after the TTL and are bounded to 50 records and 2,000,000 characters. Every session
  belongs to the scope of the call that started it.

  @REG-01
  Rule: Sessions are kept in memory only, and a new engine starts with none

    @doc
    Scenario: a fresh engine lists no sessions
      Then the list of scope "main" is empty
      And no session is live

    @doc
    Scenario: running and finishing sessions writes nothing of them to disk
      When exec runs "echo kept-in-memory" in the background
      And the session finishes
      And the session is polled
      And exec runs "echo foreground-in-memory"
      Then no file under the working directory or the home directory contains "kept-in-memory" or the session id
      And no file under the working directory or the home directory contains "foreground-in-memory" or the session id

    @doc
    Scenario: nothing of a session is written to the temporary directory, the user's home or the working folder either
      # The output holds the shell's pid: the kit's own reports, which hold the steps, and other runs never contain it.
      When exec runs "echo mem-$$-only" in the background
      And the session finishes
      And the session is polled
      Then the text matches "mem-[0-9]+-only"
      And no file changed during the scenario in the temporary directory, the user's home or the kit's folder contains the part of the text matching "mem-[0-9]+-only"

  @REG-02
  Rule: A foreground run that completes leaves no trace

    @doc
    Scenario: a foreground run is never listed, during or after the run
      When exec is started with '{"command": "sleep 0.6; echo done", "yieldMs": 5000}'
      And 200 ms pass
      Then the list of scope "main" is empty
      When the started call returns
      Then the text contains "done"
      And the list of scope "main" is empty

  @REG-03
  Rule: A completed session records its exit and becomes a finished record with its end time

    @upstream
    Scenario: the finished record carries exit fields, a recomputed tail and its end time
      When exec runs "printf 'one\n'; sleep 0.3; printf 'two\n'" in the background
      And the session finishes
      And the sessions are listed
      Then the details contain:
        """
        {"sessions": [{"sessionId": "<id>", "status": "completed", "exitCode": 0, "exitReason": "exit", "tail": "one\ntwo\n"}]}
        """
      And the detail "sessions.0.endedAt" is a integer
      And the detail "sessions.0.runtimeMs" is between 300 and 5000
      And the detail "sessions.0.stdinWritable" is absent
      And the session is not live

  @REG-04
  Rule: A session completes when its process exited and both pipes reached end-of-file

    @upstream
    Scenario: a background descendant holding the pipes keeps the session running
      When exec runs "sleep 1 & echo $$ > shell.pid" in the background
      And the pid file "shell.pid" has been written
      And the process whose pid is in file "shell.pid" has ended within 1000 ms
      Then the session is live
      When the sessions are listed
      Then the detail "sessions.0.status" is "running"
      When the session finishes
      And the sessions are listed
      Then the detail "sessions.0.status" is "completed"
      And the detail "sessions.0.runtimeMs" is between 1000 and 5000

    @upstream
    Scenario: output written just before an immediate exit is never lost
      When exec runs "seq 1 5000" in the background
      And the session finishes
      And the session is polled
      Then the text is exactly "" then the lines 1 to 5000 then "\n\nProcess exited with code 0."

  @REG-05
  Rule: A finished record expires after the TTL and its id becomes unknown

    @doc @slow
    Scenario: a record is kept for the TTL and then forgotten
      Given the exec config is '{"cleanupMs": 60000}'
      When exec runs "echo bye" in the background
      And the session finishes
      And 57000 ms pass
      Then the session is listed
      And the session leaves the list within 3000 ms
      When the session is polled
      Then the call failed, either rejected or with a failed result

  @REG-06
  Rule: Expiry is timer driven and re-armed after each expiry and after clear

    # B and C finish 6 s apart, and each expiry is awaited with its bound (+ T): with fixed waits 3 s apart, C had
    # 1.5 s to spare before its own expiry, which a loaded machine once used up.
    @upstream @slow
    Scenario: records expire one after another, also after the earliest one was cleared
      Given the exec config is '{"cleanupMs": 60000}'
      When exec runs "echo a" in the background
      And the session finishes
      And the session id is remembered as "A"
      And 3000 ms pass
      And exec runs "echo b" in the background
      And the session finishes
      And the session id is remembered as "B"
      And 6000 ms pass
      And exec runs "echo c" in the background
      And the session finishes
      And the session id is remembered as "C"
      And process is called with '{"action": "clear", "sessionId": "<A>"}'
      Then the text is "Cleared session <A>."
      When 50000 ms pass
      Then the session "B" is listed in scope "main"
      And the session "C" is listed in scope "main"
      And the session "B" leaves the list of scope "main" within 4000 ms
      And the session "C" is listed in scope "main"
      And the session "C" leaves the list of scope "main" within 7000 ms
      And the list of scope "main" is empty

  @REG-07
  Rule: At most 50 finished records are kept; the oldest-completed one is evicted

    @doc
    Scenario: the 51st finished record evicts the first
      When 51 background sessions run "true" one after another as "s"
      Then the sessions "s1" to "s50" are listed in scope "main"
      And the sessions "s0" to "s0" are not listed in scope "main"
      And the number of sessions listed in scope "main" is 50

  @REG-07 @REG-10
  Rule: Caps apply whenever a record joins the finished set; an evicted record is gone like a cleared one

    @upstream
    Scenario: 55 sessions finishing in order keep s5 to s54
      When 55 background sessions run "true" one after another as "s"
      Then the sessions "s5" to "s54" are listed in scope "main"
      And the sessions "s0" to "s4" are not listed in scope "main"
      When process is called with '{"action": "poll", "sessionId": "<s0>"}'
      Then the text is "No session found for <s0>"
      When process is called with '{"action": "log", "sessionId": "<s4>"}'
      Then the text is "No session found for <s4>"

    @upstream
    Scenario: 11 sessions of 200000 characters keep the 10 most recent
      When 11 background sessions run "head -c 200000 /dev/zero | tr '\0' a" one after another as "big"
      Then the sessions "big1" to "big10" are listed in scope "main"
      And the sessions "big0" to "big0" are not listed in scope "main"
      And the number of sessions listed in scope "main" is 10

  @REG-08 @REG-09
  Rule: Finished output is bounded to 2,000,000 characters in total; the newest record is always kept

    @doc
    Scenario: exactly 2,000,000 characters are allowed, one more evicts the oldest records, empty ones included
      When 1 background sessions run "true" one after another as "empty"
      And 10 background sessions run "head -c 200000 /dev/zero | tr '\0' a" one after another as "big"
      Then the number of sessions listed in scope "main" is 11
      When 1 background sessions run "head -c 200000 /dev/zero | tr '\0' b" one after another as "newest"
      Then the sessions "empty0" to "empty0" are not listed in scope "main"
      And the sessions "big0" to "big0" are not listed in scope "main"
      And the sessions "big1" to "big9" are listed in scope "main"
      And the sessions "newest0" to "newest0" are listed in scope "main"
      And the number of sessions listed in scope "main" is 10

  @REG-11
  Rule: clear and remove delete a finished record immediately

    @doc
    Scenario Outline: <action> deletes a finished record
      When exec runs "echo done" in the background
      And the session finishes
      And process is called with '{"action": "<action>", "sessionId": "<id>"}'
      Then the process action did not fail
      And the session is not listed
      When the session is polled
      Then the call failed, either rejected or with a failed result

      Examples:
        | action |
        | clear  |
        | remove |

    @REG-11 @PROC-09 @PROC-13 @POLL-02 @upstream
    Scenario Outline: <action> of a finished record completes, and a poll then fails as for an unknown id
      When exec runs "echo done" in the background
      And the session finishes
      And process is called with '{"action": "<action>", "sessionId": "<id>"}'
      Then the call is not rejected
      And the status is "completed"
      When the session is polled
      Then the call is not rejected
      And the status is "failed"
      And the text is "No session found for <id>"

      Examples:
        | action |
        | clear  |
        | remove |

  @REG-12
  Rule: A session record keeps its identity, command, place, output state and exit fields

    @upstream
    Scenario: a running entry and a finished entry expose the kept fields
      When exec runs "echo finished-one" in the background
      And the session id is remembered as "F"
      And the session finishes
      And exec runs "echo running-one; sleep 30" in the background
      And the session's log shows "running-one"
      And the sessions are listed
      Then the details contain:
        """
        {"sessions": [
          {"sessionId": "<id>", "status": "running", "command": "echo running-one; sleep 30", "cwd": "<cwd>", "truncated": false},
          {"sessionId": "<F>", "status": "completed", "command": "echo finished-one", "cwd": "<cwd>", "truncated": false,
           "exitCode": 0, "exitReason": "exit", "tail": "finished-one\n"}
        ]}
        """
      And the detail "sessions.0.pid" is a integer
      And the detail "sessions.0.startedAt" is a integer
      And the detail "sessions.0.lastOutputAt" is a integer
      And the detail "sessions.0.stdinWritable" is "false"
      And the detail "sessions.1.startedAt" is a integer
      And the detail "sessions.1.endedAt" is a integer

  @REG-13
  Rule: Clearing finished sessions of a scope deletes exactly those and reports how many

    @doc
    Scenario: running sessions and other scopes are unaffected
      When exec is called in scope "a" with '{"command": "echo one", "background": true}'
      And the session finishes
      And exec is called in scope "a" with '{"command": "echo two", "background": true}'
      And the session finishes
      And exec is called in scope "a" with '{"command": "sleep 30", "background": true}'
      And the session id is remembered as "RUNNING"
      And exec is called in scope "b" with '{"command": "echo other", "background": true}'
      And the session finishes
      And the session id is remembered as "OTHER"
      And the finished sessions of scope "a" are cleared
      Then 2 finished sessions were cleared
      And the session "RUNNING" is listed in scope "a"
      And the number of sessions listed in scope "a" is 1
      And the session "OTHER" is listed in scope "b"
      When the finished sessions of scope "a" are cleared
      Then 0 finished sessions were cleared

  @REG-14
  Rule: Live session ids include backgrounded and hidden sessions until their process has exited

    @doc
    Scenario: a backgrounded session is live, a foreground run is not
      When exec is started with '{"command": "sleep 0.6", "yieldMs": 5000}'
      And 200 ms pass
      Then no session is live
      When the started call returns
      And exec runs "sleep 30" in the background
      Then the session is live

    @doc
    Scenario: a removed session stays live until its process has exited
      When exec runs "trap '' TERM; echo armed; sleep 3; touch exited.txt" in the background
      And the session's log shows "armed"
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      And 300 ms pass
      Then the session is not listed
      And the session is live
      And the file "exited.txt" does not exist in the working directory
      When the session finishes
      Then the file "exited.txt" exists in the working directory
      And no session is live

  @REG-15
  Rule: A session belongs to the scope of the call that started it

    @doc
    Scenario: another scope does not see the session
      When exec is called in scope "a" with '{"command": "sleep 30", "background": true}'
      And the session id is remembered as "S"
      Then the session "S" is listed in scope "a"
      And the list of scope "b" is empty
      When process is called in scope "b" with '{"action": "poll", "sessionId": "<S>"}'
      Then the call failed, either rejected or with a failed result

  @REG-16
  Rule: A session of another scope behaves exactly like an unknown id

    @upstream
    Scenario Outline: <action> of a running session from another scope answers as for an unknown id
      When exec is called in scope "a" with '{"command": "sleep 30", "background": true}'
      And process is called in scope "b" with '{"action": "<action>", "sessionId": "<id>", "data": "x", "keys": ["Enter"], "text": "x"}'
      Then the status is "failed"
      And the text is "<text>"
      When process is called in scope "b" with '{"action": "<action>", "sessionId": "never-started-id", "data": "x", "keys": ["Enter"], "text": "x"}'
      Then the text is "<unknown>"
      And the session is live
      And the list of scope "b" is empty

      Examples:
        | action    | text                              | unknown                                      |
        | poll      | No session found for <id>         | No session found for never-started-id        |
        | log       | No session found for <id>         | No session found for never-started-id        |
        | kill      | No active session found for <id>  | No active session found for never-started-id |
        | write     | No active session found for <id>  | No active session found for never-started-id |
        | send-keys | No active session found for <id>  | No active session found for never-started-id |
        | submit    | No active session found for <id>  | No active session found for never-started-id |
        | paste     | No active session found for <id>  | No active session found for never-started-id |
        | clear     | No finished session found for <id> | No finished session found for never-started-id |
        | remove    | No session found for <id>         | No session found for never-started-id        |

    @upstream
    Scenario: a finished session of another scope is unknown too
      When exec is called in scope "a" with '{"command": "echo done", "background": true}'
      And the session finishes
      And process is called in scope "b" with '{"action": "clear", "sessionId": "<id>"}'
      Then the text is "No finished session found for <id>"
      When process is called in scope "b" with '{"action": "poll", "sessionId": "<id>"}'
      Then the text is "No session found for <id>"
      And the session "id" is listed in scope "a"

  @REG-17
  Rule: Calls with the same scope key see the same sessions

    @doc
    Scenario: a session started in a shared scope is visible to every toolkit of that scope
      When exec is called in scope "team" with '{"command": "echo shared", "background": true}'
      And the session finishes
      And process is called in scope "team" with '{"action": "poll", "sessionId": "<id>"}'
      Then the status is "completed"
      And the text contains "shared"
      And the session "id" is listed in scope "team"

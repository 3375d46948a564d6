Feature: Process actions: common rules, clear and remove
  The process tool manages the background sessions of the caller's scope through ten actions. Its failures are
  returned as failed results, not thrown; `clear` forgets a finished session and `remove` ends or forgets one.

  Rule: The process tool supports exactly the ten documented actions

    @PROC-01 @doc
    Scenario Outline: the action "<action>" is supported on a running session
      When exec runs "sleep 30" in the background
      And process is called with:
        """
        {"action": "<action>", "sessionId": "<id>"}
        """
      Then the call is not rejected
      And the process action did not fail

      Examples:
        | action |
        | list   |
        | poll   |
        | log    |
        | kill   |
        | remove |

    @PROC-01 @doc
    Scenario: the action "clear" is supported on a finished session
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "clear", "sessionId": "<id>"}'
      Then the call is not rejected
      And the process action did not fail

    @PROC-01 @doc @pty
    Scenario Outline: the input action <arguments> is supported on a PTY session
      When exec runs "sleep 30" in a pty in the background
      And process is called with:
        """
        {"sessionId": "<id>", <arguments>}
        """
      Then the call is not rejected
      And the process action did not fail

      Examples:
        | arguments                            |
        | "action": "write", "data": "x"       |
        | "action": "send-keys", "keys": ["a"] |
        | "action": "submit"                   |
        | "action": "paste", "text": "x"       |

    @PROC-01 @doc
    Scenario: an action outside the ten fails
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "restart", "sessionId": "<id>"}'
      Then the call failed, either rejected or with a failed result

  Rule: Any other action is a returned failure that lists the allowed actions

    @PROC-02 @upstream
    Scenario Outline: the action "<action>" is rejected with the list of actions
      When process is called with:
        """
        {"action": "<action>", "sessionId": "nope"}
        """
      Then the text is "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove"
      And the details contain:
        """
        {"status": "failed", "error": "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove"}
        """

      Examples:
        | action    |
        | restart   |
        | send_keys |
        | LIST      |
        | Poll      |
        |           |

  Rule: Every action other than list needs a non-empty sessionId

    @PROC-03 @upstream
    Scenario Outline: "<action>" without a sessionId fails
      When process is called with:
        """
        {"action": "<action>"}
        """
      Then the text is "sessionId is required for this action."
      And the details contain:
        """
        {"status": "failed", "error": "sessionId is required for this action."}
        """

      Examples:
        | action    |
        | poll      |
        | log       |
        | write     |
        | send-keys |
        | submit    |
        | paste     |
        | kill      |
        | clear     |
        | remove    |

    @PROC-03 @upstream
    Scenario Outline: "<action>" with an empty sessionId fails
      When process is called with:
        """
        {"action": "<action>", "sessionId": ""}
        """
      Then the text is "sessionId is required for this action."

      Examples:
        | action    |
        | poll      |
        | log       |
        | send-keys |
        | kill      |
        | clear     |
        | remove    |

    @PROC-03 @upstream
    Scenario: list needs no sessionId
      When process is called with '{"action": "list"}'
      Then the text is "No running or recent sessions."

  Rule: Process failures are returned, not thrown, with the text repeated as details.error

    @PROC-04 @upstream
    Scenario Outline: the failure of <arguments> resolves with status "failed" and error equal to the text
      When process is called with:
        """
        {<arguments>}
        """
      Then the call is not rejected
      And the status is "failed"
      And the detail "error" equals the text
      And the text is "<text>"

      Examples:
        | arguments                                          | text                                                                                                           |
        | "action": "jump"                                   | Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove |
        | "action": "poll"                                   | sessionId is required for this action.                                                                         |
        | "action": "poll", "sessionId": "no-such-session"   | No session found for no-such-session                                                                           |
        | "action": "log", "sessionId": "no-such-session"    | No session found for no-such-session                                                                           |
        | "action": "kill", "sessionId": "no-such-session"   | No active session found for no-such-session                                                                    |
        | "action": "write", "sessionId": "no-such-session"  | No active session found for no-such-session                                                                    |
        | "action": "clear", "sessionId": "no-such-session"  | No finished session found for no-such-session                                                                  |
        | "action": "remove", "sessionId": "no-such-session" | No session found for no-such-session                                                                           |

    @PROC-04 @upstream
    Scenario: a failed input action on a non-PTY session is returned, not thrown
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "write", "sessionId": "<id>", "data": "x"}'
      Then the call is not rejected
      And the details contain:
        """
        {"status": "failed", "error": "Session <id> stdin is not writable."}
        """

  Rule: Parameters that an action does not use are ignored

    @PROC-05 @upstream
    Scenario: list ignores a sessionId and paging parameters
      When exec runs "sleep 30" in the background
      And process is called in scope "other" with:
        """
        {"action": "list", "sessionId": "<id>", "offset": 3, "limit": 1, "data": "x", "keys": ["Up"]}
        """
      Then the text is "No running or recent sessions."

    @PROC-05 @upstream
    Scenario: poll ignores input and paging parameters
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And process is called with:
        """
        {"action": "poll", "sessionId": "<id>", "offset": 5, "limit": 0, "data": "zz", "eof": true, "keys": ["C-c"], "text": "t", "bracketed": false}
        """
      Then the text is "a\n\nProcess still running."

    @PROC-05 @upstream
    Scenario: clear ignores a poll timeout and input parameters
      When exec runs "echo a" in the background
      And the session finishes
      And process is called with '{"action": "clear", "sessionId": "<id>", "timeout": 5000, "data": "x", "eof": true}'
      Then the text is "Cleared session <id>."
      And the call took at most 100 ms

  Rule: Lookups consider only the sessions of the caller's scope

    @PROC-06 @doc
    Scenario Outline: "<action>" from another scope does not reach the session
      When exec is called in scope "alpha" with '{"command": "sleep 30", "background": true}'
      And the session id is remembered as "A"
      And process is called in scope "beta" with:
        """
        {"action": "<action>", "sessionId": "<A>"}
        """
      Then the call failed, either rejected or with a failed result
      And the session "A" is listed in scope "alpha"
      And the session "A" is not listed in scope "beta"
      And the session is live

      Examples:
        | action |
        | poll   |
        | log    |
        | write  |
        | kill   |
        | clear  |
        | remove |

    @PROC-06 @doc
    Scenario: a finished session of another scope cannot be cleared
      When exec is called in scope "alpha" with '{"command": "echo hi", "background": true}'
      And the session id is remembered as "A"
      And the session finishes
      And process is called in scope "beta" with '{"action": "clear", "sessionId": "<A>"}'
      Then the call failed, either rejected or with a failed result
      And the session "A" is listed in scope "alpha"

  Rule: Actions on a session still in its foreground window fail until the session is backgrounded
    The guard text `Session <id> is not backgrounded.` cannot be reached through the adapter: a foreground
    session's id is only known from the progress updates, which the adapter hands over together with the
    result, and by then the session is backgrounded or gone. The scenario pins what is observable: during the
    foreground window the session is invisible to the process tool, and the id its progress updates carry
    becomes usable exactly when exec returns the running result.

    @PROC-07 @upstream
    Scenario: a session in its foreground window is invisible to the process tool until exec returns
      When exec is started with '{"command": "echo hi; sleep 30", "yieldMs": 1500}'
      And 500 ms pass
      And process is called with '{"action": "list"}'
      Then the text is "No running or recent sessions."
      And no session is live
      When the started call returns
      Then the status is "running"
      And at least 1 progress update was received
      And every progress update has details containing:
        """
        {"status": "running", "sessionId": "<id>"}
        """
      When the session is polled
      Then the text is "hi\n\nProcess still running."

  Rule: clear removes a finished session from memory

    @PROC-08 @doc
    Scenario: a cleared session is no longer listed or pollable
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "clear", "sessionId": "<id>"}'
      Then the process action did not fail
      And the session is not listed
      When the session is polled
      Then the call failed, either rejected or with a failed result

    # Only finished sessions are cleared. Whether clear of a running one fails or does nothing is left open here
    # (its text is PROC-10's); the session runs on. It ends when a second command creates the file `go` in the
    # working directory both share.
    @PROC-08 @doc
    Scenario: clear leaves a running session running, listed, pollable and announced when it exits
      When exec runs "echo started; while [ ! -e go ]; do sleep 0.2; done; echo finished" in the background
      And the session id is remembered as "job"
      And the session's log shows "started"
      And process is called with '{"action": "clear", "sessionId": "<job>"}'
      Then the session "job" is listed in scope "main"
      When the sessions are listed
      Then the listed session "job" has details containing '{"status": "running"}'
      When process is called with '{"action": "poll", "sessionId": "<job>"}'
      Then the status is "running"
      When exec runs "touch go"
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned
      And event 1 has fields:
        """
        {"scopeKey": "main", "sessionId": "<job>"}
        """
      When process is called with '{"action": "poll", "sessionId": "<job>"}'
      Then the status is not "running"
      And the text contains "finished"

  Rule: A successful clear confirms it and makes the id unknown to every action

    @PROC-09 @upstream
    Scenario: clear confirms the cleared session
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "clear", "sessionId": "<id>"}'
      Then the text is "Cleared session <id>."
      And the details contain:
        """
        {"status": "completed"}
        """

    @PROC-09 @upstream
    Scenario Outline: after clear, "<action>" treats the id as unknown
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "clear", "sessionId": "<id>"}'
      And process is called with:
        """
        {"action": "<action>", "sessionId": "<id>"}
        """
      Then the text is "<text>"
      And the status is "failed"

      Examples:
        | action    | text                               |
        | poll      | No session found for <id>          |
        | log       | No session found for <id>          |
        | clear     | No finished session found for <id> |
        | remove    | No session found for <id>          |
        | kill      | No active session found for <id>   |
        | write     | No active session found for <id>   |
        | send-keys | No active session found for <id>   |

  Rule: clear fails for a running session or an unknown id and leaves running sessions alone

    @PROC-10 @upstream
    Scenario: clear of a running session fails and the session keeps running
      When exec runs "echo a; sleep 30" in the background
      And the session's log shows "a"
      And process is called with '{"action": "clear", "sessionId": "<id>"}'
      Then the text is "No finished session found for <id>"
      And the details contain:
        """
        {"status": "failed"}
        """
      And the session is live
      When the sessions are listed
      Then the listed session "id" has details containing '{"status": "running"}'
      When the session is polled
      Then the text is "a\n\nProcess still running."

    @PROC-10 @upstream
    Scenario: clear of an unknown id fails
      When process is called with '{"action": "clear", "sessionId": "quiet-otter"}'
      Then the text is "No finished session found for quiet-otter"

  Rule: remove terminates a running session or clears a finished one

    @PROC-11 @doc
    Scenario: remove ends a running session
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the process action did not fail
      And the session is not listed
      When the session finishes
      Then the session is not live
      And the session is not listed

    @PROC-11 @doc
    Scenario: remove forgets a finished session
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the process action did not fail
      And the session is not listed
      When the session is polled
      Then the call failed, either rejected or with a failed result

  Rule: remove of a running session requests termination and hides it at once

    @PROC-12 @upstream
    Scenario: remove of a running session reports the termination request
      When exec runs "sleep 30" in the background
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "Removed session <id> (termination requested)."
      And the details contain:
        """
        {"status": "completed"}
        """
      And the session is not listed

    @PROC-12 @upstream
    Scenario: remove of a session of another scope is not found
      When exec is called in scope "alpha" with '{"command": "sleep 30", "background": true}'
      And process is called in scope "beta" with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "No session found for <id>"
      And the status is "failed"
      And the session is live

    @PROC-12 @upstream
    Scenario: a second remove of a hidden session is not found
      When exec is called with:
        """
        {"command": "trap '' TERM; echo armed; sleep 3", "background": true}
        """
      And the session's log shows "armed"
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "Removed session <id> (termination requested)."
      And the session is live
      When process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "No session found for <id>"
      And the status is "failed"

    @PROC-12 @upstream @executor
    Scenario: remove fails when the session's process cannot be signalled
      Given a fake sandbox executor:
        """
        {"output": [{"stream": "stdout", "data": "up\n"}], "exit": {"code": 0, "signal": null, "delayMs": 1500}, "killable": false}
        """
      When exec is called with '{"command": "serve", "host": "sandbox", "background": true}'
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "Unable to remove session <id>: no active supervisor cancellation handle. Use process poll to check whether it is already exiting."
      And the status is "failed"
      And the session is listed

  Rule: remove deletes a finished record and fails for an unknown id

    @PROC-13 @upstream
    Scenario: remove of a finished session deletes its record
      When exec runs "echo hi" in the background
      And the session finishes
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the text is "Removed session <id>."
      And the details contain:
        """
        {"status": "completed"}
        """
      When the session is polled
      Then the text is "No session found for <id>"

    @PROC-13 @upstream
    Scenario: remove of an unknown id fails
      When process is called with '{"action": "remove", "sessionId": "brisk-falcon"}'
      Then the text is "No session found for brisk-falcon"
      And the details contain:
        """
        {"status": "failed", "error": "No session found for brisk-falcon"}
        """

  Rule: A removed running session disappears at once but stays live until its process has exited

    @PROC-14 @doc
    Scenario: a removed session is hidden, live until it exits, never retained and never notified
      When exec is called with:
        """
        {"command": "trap '' TERM; echo started; sleep 3; echo bye", "background": true}
        """
      And the session's log shows "started"
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      Then the process action did not fail
      And the session is not listed
      And the session is live
      When the session is polled
      Then the call failed, either rejected or with a failed result
      When the session log is read
      Then the call failed, either rejected or with a failed result
      When the session finishes
      And 300 ms pass
      Then the session is not listed
      And the session is not live
      And no event is queued for scope "main"
      And 0 wake requests were observed
      When the session is polled
      Then the call failed, either rejected or with a failed result

    @PROC-14 @POLL-02 @upstream
    Scenario: once a removed session has exited, a poll of its id finds no session
      When exec is called with:
        """
        {"command": "trap '' TERM; echo armed; sleep 1", "background": true}
        """
      And the session's log shows "armed"
      And process is called with '{"action": "remove", "sessionId": "<id>"}'
      And the session finishes
      And the session is polled
      Then the text is "No session found for <id>"
      And the details contain:
        """
        {"status": "failed"}
        """

Feature: Watching a session's output
  The opt-in `watch` tool (capability `watch`, issue 34) tells the agent when a line of a background session's
  output matches: the engine queues an `Output matched` system event for the session's scope and requests a wake,
  the path of exit events. A literal substring is the default, `regex: true` takes a regular expression that no
  pattern can make slow, and a watch ends at its first match, with its session, or after its timeout.

  Rule: a matching output line queues `Output matched (<id>): <line>` for the session's scope and requests a wake

    @reference @watch
    Scenario: the first matching line is announced once
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; echo 'server is ready'; echo 'ready again'; sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "ready"}'
      And a file "go" containing:
        """
        go
        """
      Then the status is "running"
      And the detail "watch.state" is "watching"
      When an event is queued for scope "main"
      And 500 ms pass
      And the events of scope "main" are drained
      Then 1 event was returned
      And event 1 has text:
        """
        Output matched (<id>): server is ready
        """
      And event 1 has fields:
        """
        {"scopeKey": "main", "sessionId": "<id>"}
        """
      And 1 wake request was observed
      When the session is killed

    @reference @watch
    Scenario: a line written one byte at a time is joined before it is matched
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; for c in r e a d y; do printf %s $c; sleep 0.05; done; echo; sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "ready"}'
      And a file "go" containing:
        """
        go
        """
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then event 1 has text:
        """
        Output matched (<id>): ready
        """
      When the session is killed

    @reference @watch
    Scenario: the pattern is a literal substring unless regex is true
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; echo abc; echo 'x a.c y'; sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "a.c"}'
      And a file "go" containing:
        """
        go
        """
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then event 1 has text:
        """
        Output matched (<id>): x a.c y
        """
      When the session is killed

    @reference @watch @pty
    Scenario: a terminal's lines are matched as sanitized, without escape sequences
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; printf '\\033[32mready\\033[0m\\n'; sleep 30" in a pty in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "^ready$", "regex": true}'
      And a file "go" containing:
        """
        go
        """
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then event 1 has text:
        """
        Output matched (<id>): ready
        """
      When the session is killed

  Rule: with once false, the matches of one second make one event that counts them

    @reference @watch
    Scenario: three matching lines in a burst are one event
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; echo 'hit 1'; echo miss; echo 'hit 2'; echo 'hit 3'; sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "hit", "once": false}'
      And a file "go" containing:
        """
        go
        """
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then 1 event was returned
      And event 1 has text:
        """
        Output matched (<id>, 3 lines): hit 1
        """
      When the session is killed

  Rule: a watch ends with its session or after timeoutSeconds, and says that nothing matched

    @reference @watch
    Scenario: the session ends before any line matched
      When exec runs "while [ ! -e go ]; do sleep 0.05; done; echo starting; exit 3" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "ready"}'
      And a file "go" containing:
        """
        go
        """
      And the session finishes
      And the events of scope "main" are drained
      Then 2 events were returned
      And event 2 has text:
        """
        Watch ended (<id>): the session ended and no output line matched "ready".
        """

    @reference @watch
    Scenario: no line matched within timeoutSeconds
      When exec runs "sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "ready", "timeoutSeconds": 0.3}'
      And an event is queued for scope "main"
      And the events of scope "main" are drained
      Then event 1 has text:
        """
        Watch ended (<id>): no match within 0.3 s for "ready". The session is still running.
        """
      When the session is killed

  Rule: poll and list show a session's watches in their details, never in their texts

    @reference @watch
    Scenario: a poll shows the watch's pattern and state in its details only
      When exec runs "sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "needle-text"}'
      And the session is polled with timeout 0
      Then the detail "watches.0.pattern" is "needle-text"
      And the detail "watches.0.state" is "watching"
      And the text does not contain "needle-text"
      When the session is killed

  Rule: no pattern can stall the engine, and a wrong argument is refused with a clear error

    @reference @watch
    Scenario: a catastrophic regular expression against 100 kB lines leaves other calls answered at once
      When exec runs "sleep 30" in the background
      And the session id is remembered as "other"
      And exec runs "while [ ! -e go ]; do sleep 0.05; done; for i in 1 2 3 4 5; do head -c 100000 /dev/zero | tr '\\0' a; echo '!'; done; sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "^(a+)+$", "regex": true, "once": false}'
      And a file "go" containing:
        """
        go
        """
      And the session's log shows "!"
      And process is called with '{"action": "poll", "sessionId": "<other>", "timeout": 0}'
      Then the call took at most 100 ms
      When process is called with '{"action": "kill", "sessionId": "<other>"}'
      And the session is killed

    @reference @watch
    Scenario: a regular expression that does not compile is refused, naming the pattern
      When exec runs "sleep 30" in the background
      And watch is called with '{"sessionId": "<id>", "pattern": "(ready", "regex": true}'
      Then the call is rejected with a message starting with "Invalid watch pattern \"(ready\": missing closing )."
      When the session is killed

    @reference @watch
    Scenario: a watch of an unknown session is an error result
      When watch is called with '{"sessionId": "no-such-session", "pattern": "ready"}'
      Then the result is an error
      And the text is "No session found for no-such-session"

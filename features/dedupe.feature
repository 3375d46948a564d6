Feature: Retry dedupe
  With the opt-in retry dedupe window (capability `dedupe`, issue 34), an exec identical to a job of the same scope
  that is still running and started within the window starts no second process: it answers with that job, and its
  text says that it is the same job. Without the window, every exec starts its own process, as documented.

  Rule: an identical exec within the window joins the running job

    @reference @dedupe
    Scenario: a retried background exec 1 s later returns the first job
      Given the retry dedupe window is 10000 ms
      When exec runs "sleep 30; echo one" in the background
      And the session id is remembered as "first"
      And 1.0 seconds pass
      And exec runs "sleep 30; echo one" in the background
      Then the text matches "^Same job already started \\d+ s ago \\(session [^)]+\\): no second process was started\\.\n\nCommand still running \\(session [^,]+, pid "
      And the detail "sessionId" is "<first>"
      When the sessions are listed
      Then the detail "sessions" has 1 entries
      When the session is killed

    @reference @dedupe
    Scenario: a retried foreground exec waits on the same job and gets its result
      Given the retry dedupe window is 10000 ms
      When exec is started as "first" with '{"command": "sleep 2; echo built"}'
      And 300 ms pass
      And exec is called with '{"command": "sleep 2; echo built"}'
      Then the text matches "^Same job already started \\d+ s ago \\(session [^)]+\\): no second process was started\\.\n\nbuilt$"
      When the started call "first" returns
      Then the text is "built"

    @reference @dedupe
    Scenario: another env, another scope or a finished first job start a new process
      Given the retry dedupe window is 10000 ms
      When exec runs "sleep 30" in the background
      And the session id is remembered as "first"
      And exec is called with '{"command": "sleep 30", "background": true, "env": {"A": "1"}}'
      Then the detail "sessionId" does not contain "<first>"
      When exec is called in scope "other" with '{"command": "sleep 30", "background": true}'
      Then the detail "sessionId" does not contain "<first>"
      When exec runs "echo once"
      And exec runs "echo once"
      Then the text is "once"

  Rule: without a window every exec starts its own process

    @reference
    Scenario: two identical background execs are two sessions by default
      When exec runs "sleep 30" in the background
      And the session id is remembered as "first"
      And exec runs "sleep 30" in the background
      Then the detail "sessionId" does not contain "<first>"
      And the text does not contain "Same job"

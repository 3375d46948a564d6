Feature: the LangChain surface
  The two tools reach an agent as LangChain StructuredTools of one toolkit: the model sees their names,
  descriptions and JSON schemas, a host gets back ToolMessages whose content is the text and whose artifact is
  the details, and queued exit events reach the conversation before the next model call. Scenarios here need the
  "langchain" capability, except the concurrency rule, which plain calls show.

  @LC-01 @langchain
  Rule: the toolkit provides two tools named exactly exec and process, in that order

    @doc
    Scenario: a default toolkit's tools are exec then process
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the toolkit's tools are '["exec", "process"]'

  @LC-02 @langchain
  Rule: without the process tool the toolkit provides only exec, and exec runs synchronously

    @doc
    Scenario: a toolkit without the process tool provides only exec
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit is described
      Then the toolkit's tools are '["exec"]'

    @doc
    Scenario: without the process tool exec waits past its yield window and backgrounds nothing
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 0.3; echo done", "yieldMs": 10}'
      Then the call is not rejected
      And the detail "status" is "completed"
      And the text contains "done"
      And no session is live

  @LC-03 @langchain
  Rule: the scope key is the explicit scopeKey, else agent:<agentName>, else default, and both tools use it

    @doc
    Scenario Outline: a toolkit with <options> has the scope key "<scope>"
      Given a LangChain toolkit with '<options>'
      When the toolkit is described
      Then the toolkit's scope key is "<scope>"

      Examples:
        | options                                       | scope         |
        | {"scopeKey": "shared", "agentName": "builder"} | shared        |
        | {"agentName": "builder"}                      | agent:builder |
        | {}                                            | default       |

    @doc
    Scenario: exec and process of an agent's toolkit share the scope agent:<agentName>
      Given a LangChain toolkit with '{"agentName": "builder"}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 30", "background": true}'
      And the toolkit's process tool is invoked with a tool call '{"action": "list"}'
      Then the text contains "<id>"
      And the session "id" is listed in scope "agent:builder"
      And the session "id" is not listed in scope "default"

  @LC-04 @langchain
  Rule: with scopeFromThread, a call carrying a thread id uses the scope thread:<thread_id>

    @doc
    Scenario: a call in thread t1 starts its session in scope thread:t1
      Given a LangChain toolkit with '{"scopeKey": "main", "scopeFromThread": true}'
      When the toolkit's exec tool is invoked in thread "t1" with a tool call '{"command": "sleep 30", "background": true}'
      Then the session "id" is listed in scope "thread:t1"
      And the session "id" is not listed in scope "main"

    @doc
    Scenario: a call without a thread id uses the toolkit's scope
      Given a LangChain toolkit with '{"scopeKey": "main", "scopeFromThread": true}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 30", "background": true}'
      Then the session "id" is listed in scope "main"

  @LC-05 @langchain
  Rule: allowElevated enables elevated exec calls; by default they fail

    @doc
    Scenario: an elevated call through a default toolkit fails
      Given a LangChain toolkit with '{}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "echo hi", "elevated": true}'
      Then the call failed, either rejected or with a failed result
      And no session is live

    @doc
    Scenario: an elevated call through a toolkit that allows elevation runs
      Given a LangChain toolkit with '{"allowElevated": true}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "echo hi", "elevated": true}'
      Then the call is not rejected
      And the detail "status" is "completed"
      And the text contains "hi"

  @LC-06 @langchain
  Rule: the exec description is the upstream text

    @upstream
    Scenario: the exec description is exactly the upstream text
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the exec tool's description is exactly:
        """
        Run shell now; background continuation supported. Completed calls return command output directly. Use process only when exec reports running with a sessionId; output text alone is not a process handle. Long run: automatic completion wake when enabled and output/failure occurs; otherwise process confirms completion. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with `?` or `&`.
        """

    @upstream @LC-08
    Scenario: in synchronous mode the exec description is the reference text
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit is described
      Then the exec tool's description is exactly:
        """
        Run shell now and return the command output when it finishes. TTY CLI/UI/coding agent: pty=true. Quote arguments containing shell metacharacters, including URL query strings with ? or &.
        """

  @LC-07 @langchain
  Rule: the process description is the upstream text

    @upstream
    Scenario: the process description is exactly the upstream text
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's description is exactly:
        """
        Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: status, output, quiet success, completion without auto-wake, input hints. Others: input/intervention.
        """

  @LC-08 @langchain
  Rule: in synchronous mode the exec description mentions neither background continuation nor the process tool

    @doc
    Scenario: the synchronous exec description does not mention the process tool or backgrounding
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit is described
      Then the exec tool's description does not mention "process"
      And the exec tool's description does not mention "background"

  @LC-09 @langchain
  Rule: the descriptions convey the documented usage guidance

    @doc
    Scenario: the descriptions mention process, pty, poll, log and the 30000 ms poll limit
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the exec tool's description mentions "process"
      And the exec tool's description mentions "pty"
      And the process tool's description mentions "poll"
      And the process tool's description mentions "log"
      And the process tool's parameter "timeout" has a description mentioning "30000"

  @LC-10 @langchain
  Rule: the exec schema requires command and declares the documented optional parameters

    @doc
    Scenario: the exec schema a model sees
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the exec tool's schema requires exactly '["command"]'
      And the exec tool's schema has the properties:
        | property       | type             |
        | command        | string           |
        | workdir        | string           |
        | env            | record of string |
        | yieldMs        | number           |
        | background     | boolean          |
        | timeoutSeconds | number           |
        | pty            | boolean          |
        | elevated       | boolean          |
        | host           | string           |
        | node           | string           |

    @reference
    Scenario: the exec schema also declares title
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the exec tool's schema has the properties:
        | property | type   |
        | title    | string |

  @LC-11 @langchain
  Rule: the exec schema also accepts timeout in seconds, a deprecated alias of timeoutSeconds

    @legacy-doc
    Scenario: the exec schema declares an optional number timeout described as deprecated
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the exec tool's schema has the properties:
        | property | type   |
        | timeout  | number |
      And the exec tool's schema requires exactly '["command"]'
      And the exec tool's parameter "timeout" has a description mentioning "deprecated"
      And the exec tool's parameter "timeout" has a description mentioning "timeoutSeconds"

  @LC-12 @langchain
  Rule: the process schema requires action and declares the documented optional parameters

    @doc
    Scenario: the process schema a model sees
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's schema requires exactly '["action"]'
      And the process tool's schema has the properties:
        | property  | type            |
        | action    | string          |
        | sessionId | string          |
        | data      | string          |
        | eof       | boolean         |
        | keys      | array of string |
        | text      | string          |
        | offset    | number          |
        | limit     | number          |
      And the process tool's schema has the property "timeout"

    # The documentation names neither the raw-byte parameters of send-keys nor the option of paste.
    @KEYS-02 @INPUT-14 @upstream
    Scenario: the process schema also declares hex, literal and bracketed
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's schema has the properties:
        | property  | type            |
        | hex       | array of string |
        | literal   | string          |
        | bracketed | boolean         |

  @LC-13 @langchain
  Rule: process timeout accepts a number or a digit string; other numeric parameters accept numbers only

    @upstream
    Scenario: the process timeout is declared as a number or a string
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's schema has the properties:
        | property | type             |
        | timeout  | number or string |

    @upstream
    Scenario: a digit-string poll timeout is honoured
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 1; echo late; sleep 30", "background": true}'
      And the toolkit's process tool is invoked with a tool call '{"action": "poll", "sessionId": "<id>", "timeout": "5000"}'
      Then the call is not rejected
      And the text contains "late"

    @upstream
    Scenario Outline: a string for the number <parameter> of <tool> fails schema validation
      Given a LangChain toolkit with '{}'
      When the toolkit's <tool> tool is invoked with a tool call '<args>'
      Then the invocation was rejected with a schema-validation error
      And no session is live

      Examples:
        | tool    | parameter      | args                                                  |
        | exec    | yieldMs        | {"command": "echo hi", "yieldMs": "100"}              |
        | exec    | timeoutSeconds | {"command": "echo hi", "timeoutSeconds": "5"}         |
        | exec    | timeout        | {"command": "echo hi", "timeout": "5"}                |
        | process | offset         | {"action": "log", "sessionId": "none", "offset": "1"} |
        | process | limit          | {"action": "log", "sessionId": "none", "limit": "2"}  |

  @LC-14 @langchain
  Rule: action and host are plain strings, so invalid values reach the tool; the poll timeout has the reference description

    @upstream
    Scenario: action and host are declared as plain strings whose descriptions list the allowed values
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's parameter "action" is a plain string
      And the exec tool's parameter "host" is a plain string
      And the process tool's parameter "action" has a description mentioning "list"
      And the process tool's parameter "action" has a description mentioning "poll"
      And the process tool's parameter "action" has a description mentioning "log"
      And the process tool's parameter "action" has a description mentioning "write"
      And the process tool's parameter "action" has a description mentioning "send-keys"
      And the process tool's parameter "action" has a description mentioning "submit"
      And the process tool's parameter "action" has a description mentioning "paste"
      And the process tool's parameter "action" has a description mentioning "kill"
      And the process tool's parameter "action" has a description mentioning "clear"
      And the process tool's parameter "action" has a description mentioning "remove"
      And the exec tool's parameter "host" has a description mentioning "auto"
      And the exec tool's parameter "host" has a description mentioning "sandbox"
      And the exec tool's parameter "host" has a description mentioning "gateway"
      And the exec tool's parameter "host" has a description mentioning "node"

    @upstream
    Scenario: the poll timeout has the reference description
      Given a LangChain toolkit with '{}'
      When the toolkit is described
      Then the process tool's parameter "timeout" has the description:
        """
        Poll wait in milliseconds (max 30000 ms, higher values are clamped to 30000). Polling is for on-demand status, not for wait loops.
        """

    @upstream @PROC-02
    Scenario: an invalid action reaches the tool and is returned as the PROC-02 failure
      Given a LangChain toolkit with '{}'
      When the toolkit's process tool is invoked with a tool call '{"action": "fly"}'
      Then the invocation produced a tool message with status "error"
      And the text is "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove"

    @upstream @EXEC-07
    Scenario: an invalid host reaches the tool and is rejected with the EXEC-07 message
      Given a LangChain toolkit with '{}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "echo hi", "host": "example.com"}'
      Then the invocation was rejected, but not with a schema-validation error
      And the call is rejected with 'Invalid exec host "example.com". Allowed values: auto, sandbox, gateway, node.'

  @LC-15 @langchain
  Rule: undeclared properties pass through and are ignored; synchronous mode hides yieldMs and background

    @upstream
    Scenario Outline: an undeclared property of <tool> is ignored
      Given a LangChain toolkit with '{}'
      When the toolkit's <tool> tool is invoked with a tool call '<args>'
      Then the invocation produced a tool message with status "success"
      And the text is "<text>"

      Examples:
        | tool    | args                                   | text                          |
        | exec    | {"command": "echo hi", "bogus": 1}     | hi                            |
        | process | {"action": "list", "bogus": true}      | No running or recent sessions. |

    @upstream
    Scenario: the synchronous exec schema omits yieldMs and background
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit is described
      Then the exec tool's schema has no property "yieldMs"
      And the exec tool's schema has no property "background"
      And the exec tool's schema has the properties:
        | property | type   |
        | command  | string |

    @upstream @EXEC-43
    Scenario: background sent anyway in synchronous mode reaches the tool and triggers the warning
      Given a LangChain toolkit with '{"processTool": false}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "echo hi", "background": true}'
      Then the invocation produced a tool message with status "success"
      And the text is "Warning: continuation options are unavailable; running synchronously.\n\n\n\nhi"

  @LC-16 @langchain
  Rule: a tool call gives a ToolMessage with the text as content and the details as artifact; plain arguments give the text

    @upstream
    Scenario: exec invoked with a tool call returns the text as content and the details as artifact
      Given a LangChain toolkit with '{}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "echo hi"}'
      Then the invocation produced a tool message with status "success"
      And the tool message content is a string and its artifact an object
      And the text is "hi"
      And the detail "status" is "completed"
      And the detail "exitCode" is "0"

    @upstream
    Scenario Outline: <tool> invoked with plain arguments returns the text
      Given a LangChain toolkit with '{}'
      When the toolkit's <tool> tool is invoked with plain arguments '<args>'
      Then the invocation returned the plain text "<text>"

      Examples:
        | tool    | args                   | text                           |
        | exec    | {"command": "echo hi"} | hi                             |
        | process | {"action": "list"}     | No running or recent sessions. |

  @LC-17 @langchain
  Rule: progress updates are dispatched as exec_update custom events with payload {text, details}

    @upstream
    Scenario: a command that prints during its foreground window dispatches exec_update events
      Given a LangChain toolkit with '{}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "printf a; sleep 0.3; printf b; sleep 0.3", "yieldMs": 5000}'
      Then the call is not rejected
      And at least 1 custom event named "exec_update" was dispatched
      And every custom event "exec_update" has a payload of exactly '["text", "details"]'
      And every custom event "exec_update" has a string text and details containing:
        """
        {"status": "running"}
        """

  @LC-18 @langchain
  Rule: drainEventMessages returns no message, or one human message of the event texts as "System: " lines

    @doc
    Scenario: two exit events become one human message in enqueue order
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When exec runs "echo first" in the background
      And an event is queued for scope "main"
      And exec runs "echo second" in the background
      And 2 events are queued for scope "main"
      And the events of scope "main" are peeked
      And the toolkit's event messages are drained
      Then one human message was returned with the peeked event texts as "System: " lines
      And no event is queued for scope "main"

    @doc
    Scenario: an empty queue gives no message
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the toolkit's event messages are drained
      Then no event message was returned

    @doc
    Scenario: the events of a thread are drained with its thread id
      Given a LangChain toolkit with '{"scopeKey": "main", "scopeFromThread": true}'
      When the toolkit's exec tool is invoked in thread "t1" with a tool call '{"command": "echo done", "background": true}'
      And an event is queued for scope "thread:t1"
      And the events of scope "thread:t1" are peeked
      And the toolkit's event messages of thread "t1" are drained
      Then one human message was returned with the peeked event texts as "System: " lines
      And no event is queued for scope "thread:t1"

  @LC-19 @langchain
  Rule: the middleware's before-model hook appends the queued events' message, or changes nothing

    @doc
    Scenario: a queued exit event is appended to the conversation before the model call
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When exec runs "echo done" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are peeked
      And the middleware's before-model hook runs on the conversation '[{"type": "human", "content": "hello"}]'
      Then the conversation is '[{"type": "human", "content": "hello"}]' followed by the peeked event texts as "System: " lines
      And no event is queued for scope "main"

    @doc
    Scenario: with an empty queue the hook changes nothing
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the middleware's before-model hook runs on the conversation '[{"type": "human", "content": "hello"}]'
      Then the conversation is '[{"type": "human", "content": "hello"}]'

  @LC-20 @langchain
  Rule: a failed result gives a ToolMessage with status error, every other result status success

    @upstream
    Scenario Outline: a <case> gives status "<status>"
      Given a LangChain toolkit with '{}'
      When the toolkit's <tool> tool is invoked with a tool call '<args>'
      Then the invocation produced a tool message with status "<status>"
      And the detail "status" is "<result>"

      Examples:
        | case                 | tool    | args                                          | status  | result    |
        | command not found    | exec    | {"command": "exit 127"}                       | error   | failed    |
        | non-zero exit        | exec    | {"command": "exit 3"}                         | success | completed |
        | successful command   | exec    | {"command": "echo ok"}                        | success | completed |
        | backgrounded command | exec    | {"command": "sleep 30", "background": true}   | success | running   |
        | poll of no session   | process | {"action": "poll", "sessionId": "no-such"}    | error   | failed    |
        | list                 | process | {"action": "list"}                            | success | completed |

  @LC-21 @langchain
  Rule: errors the engine throws reject the invocation with their message; schema violations with the schema error

    @upstream @RES-02
    Scenario: an empty command rejects with the engine's message, not a schema error
      Given a LangChain toolkit with '{}'
      When the toolkit's exec tool is invoked with a tool call '{"command": ""}'
      Then the invocation was rejected, but not with a schema-validation error
      And the call is rejected with "Provide a command to start."

    @upstream
    Scenario Outline: <case> rejects with the schema-validation error
      Given a LangChain toolkit with '{}'
      When the toolkit's <tool> tool is invoked with a tool call '<args>'
      Then the invocation was rejected with a schema-validation error
      And no session is live

      Examples:
        | case                       | tool    | args                  |
        | a missing command          | exec    | {"workdir": "."}      |
        | a command that is a number | exec    | {"command": 5}        |
        | a missing action           | process | {"sessionId": "x"}    |
        | an action that is a number | process | {"action": 3}         |

  @LC-22 @langchain
  Rule: the run's abort signal ends a foreground exec and a waiting poll, and leaves backgrounded sessions alone

    @upstream @EXEC-40
    Scenario: aborting the run during the foreground window rejects and ends the command
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 30", "yieldMs": 5000}' whose run is aborted after 300 ms
      Then the call is rejected with an error named "AbortError"
      And no session is live
      And the list of scope "main" is empty

    @upstream @POLL-11
    Scenario: aborting the run during a poll wait rejects and leaves the session running
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 30", "background": true}'
      And the toolkit's process tool is invoked with a tool call '{"action": "poll", "sessionId": "<id>", "timeout": 5000}' whose run is aborted after 300 ms
      Then the call is rejected with an error named "AbortError"
      And the session is live

    @upstream @EXEC-41
    Scenario: aborting the run after exec returned running leaves the session running to completion
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When the toolkit's exec tool is invoked with a tool call '{"command": "sleep 4; echo survived", "yieldMs": 200}' whose run is aborted after 2000 ms
      Then the detail "status" is "running"
      When the session finishes
      And the session is polled
      Then the text is "survived\n\nProcess exited with code 0."

  @LC-23 @langchain
  Rule: session output enters the conversation only through recorded poll/log results and exit-event snippets

    @doc
    Scenario: with exit notifications off, a finished session's output reaches the conversation only through poll
      Given the exec config is '{"notifyOnExit": false}'
      And a LangChain toolkit with '{"scopeKey": "main"}'
      When exec runs "echo lc23-output" in the background
      And the session finishes
      And the middleware's before-model hook runs on the conversation '[{"type": "human", "content": "hello"}]'
      Then the conversation is '[{"type": "human", "content": "hello"}]'
      When the toolkit's process tool is invoked with a tool call '{"action": "poll", "sessionId": "<id>"}'
      Then the text contains "lc23-output"

    @doc
    Scenario: with exit notifications on, only the exit event's message is added to the conversation
      Given a LangChain toolkit with '{"scopeKey": "main"}'
      When exec runs "echo lc23-output" in the background
      And an event is queued for scope "main"
      And the events of scope "main" are peeked
      And the middleware's before-model hook runs on the conversation '[{"type": "human", "content": "hello"}]'
      Then the conversation is '[{"type": "human", "content": "hello"}]' followed by the peeked event texts as "System: " lines

  @LC-24
  Rule: tool calls may run concurrently, and concurrent polls of one session never return the same output twice

    @upstream
    Scenario: two concurrent polls of one session with output pending return no line twice
      When exec runs "printf 'line1\\nline2\\nline3\\nline4\\nline5\\nline6\\n'; sleep 30" in the background
      And the session's log shows "line6"
      And process is started as "a" with '{"action": "poll", "sessionId": "<id>", "timeout": 2000}'
      And process is started as "b" with '{"action": "poll", "sessionId": "<id>", "timeout": 2000}'
      Then the started calls "a" and "b" returned the lines "line1 line2 line3 line4 line5 line6" between them, none twice

    @upstream
    Scenario: two concurrent polls of a session that keeps printing return no line twice
      When exec runs "for i in 1 2 3 4 5 6 7 8; do echo line$i; sleep 0.1; done; sleep 30" in the background
      And process is started as "a" with '{"action": "poll", "sessionId": "<id>", "timeout": 2000}'
      And process is started as "b" with '{"action": "poll", "sessionId": "<id>", "timeout": 2000}'
      Then the started calls "a" and "b" share no line matching "^line[0-9]$"

    @upstream
    Scenario: concurrent polls of two sessions each return their own session's output
      When exec runs "sleep 0.3; echo alpha; sleep 30" in the background
      And the session id is remembered as "A"
      And exec runs "sleep 0.3; echo beta; sleep 30" in the background
      And the session id is remembered as "B"
      And process is started as "a" with '{"action": "poll", "sessionId": "<A>", "timeout": 5000}'
      And process is started as "b" with '{"action": "poll", "sessionId": "<B>", "timeout": 5000}'
      And the started call "a" returns
      Then the text contains "alpha"
      And the text does not contain "beta"
      When the started call "b" returns
      Then the text contains "beta"
      And the text does not contain "alpha"

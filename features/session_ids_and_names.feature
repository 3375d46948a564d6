Feature: Session ids and derived session names
  Every session gets a readable, unique slug as its id, and a short name made of the command's verb and target
  so that an agent can scan a list of sessions quickly.

  @ID-01
  Rule: Session ids are lower-case slugs of at least two words

    @upstream
    Scenario Outline: the id of a <kind> session is a slug
      When exec is called with '<args>'
      Then the session id matches "^[a-z]+(-[a-z0-9]+)+$"

      Examples:
        | kind       | args                                          |
        | background | {"command": "sleep 5", "background": true}    |
        | yielded    | {"command": "sleep 5", "yieldMs": 200}        |

  @ID-02
  Rule: Ids are unique across scopes among running, hidden and finished sessions

    @upstream
    Scenario: finished, running and hidden sessions in two scopes never share an id
      When exec runs "trap '' TERM; echo armed; sleep 2" in the background
      And the session id is remembered as "HIDDEN"
      And the session's log shows "armed"
      And process is called with '{"action": "remove", "sessionId": "<HIDDEN>"}'
      And 20 background sessions run "true" one after another as "f"
      And the scope is "other"
      And 20 background sessions run "sleep 30"
      Then all 40 series session ids are distinct and match "^[a-z]+(-[a-z0-9]+)+$"
      And no series session has the id remembered as "HIDDEN"

  @ID-03
  Rule: Id generation handles collisions, so many live sessions all get distinct valid ids

    @upstream
    Scenario: 200 sessions alive at once have 200 distinct valid ids
      When 200 background sessions run "sleep 30"
      Then all 200 series session ids are distinct and match "^[a-z]+(-[a-z0-9]+)+$"
      And the number of sessions listed in scope "main" is 200

  @ID-04
  Rule: An id is reused only after its record is gone and its process has exited

    @upstream
    Scenario: a poll waiting on a removed session never reports a newer session
      When exec runs "trap '' TERM; sleep 3" in the background
      And the session id is remembered as "HIDDEN"
      And process is started as "wait" with '{"action": "poll", "sessionId": "<HIDDEN>", "timeout": 3000}'
      And 200 ms pass
      And process is called with '{"action": "remove", "sessionId": "<HIDDEN>"}'
      And 30 background sessions run "true"
      And the started call "wait" returns
      Then the text is "No session found for <HIDDEN>"
      And no series session has the id remembered as "HIDDEN"

  @NAME-01
  Rule: Each session has a derived name of the command's verb and target

    @doc
    Scenario: list, poll and log carry the name
      When exec runs "sleep 30" in the background
      And the sessions are listed
      Then the detail "sessions.0.name" matches "sleep.*30"
      And the text contains "sleep 30"
      When the session is polled
      Then the detail "name" matches "sleep.*30"
      When the session log is read
      Then the detail "name" matches "sleep.*30"

    @doc @pty
    Scenario: an input result carries the name
      When exec runs "cat" in a pty in the background
      And process is called with '{"action": "submit", "sessionId": "<id>"}'
      Then the detail "name" matches "cat"

    # With `sleep 30` alone the verb and target are the whole command; here the command goes on after them.
    @doc
    Scenario: the name is the command's verb and target, not the whole command
      When exec runs "sleep 30; echo name-tail" in the background
      And the sessions are listed
      Then the detail "sessions.0.name" matches "sleep.*30"
      And the detail "sessions.0.name" does not contain "name-tail"
      When the session is polled
      Then the detail "name" matches "sleep.*30"
      And the detail "name" does not contain "name-tail"

  @NAME-05
  Rule: The documented name pins

    @upstream
    Scenario Outline: <command> is named "<name>"
      When exec is called with:
        """
        {"command": "<command>", "background": true}
        """
      And the sessions are listed
      Then the detail "sessions.0.name" is '<name>'
      And the text ends with ' :: <name>'

      Examples:
        | command                          | name                 |
        | npm run build                    | npm run              |
        | git -C repo status               | git repo             |
        | ls -la /tmp                      | ls /tmp              |
        | python3 -u \"my script.py\" --x  | python3 my script.py |
        | cd foo && make                   | cd foo               |
        | echo start; sleep 1.5; echo done | echo start;          |
        | FOO=1 node app.js                | FOO=1 node           |
        | kill -9 $$                       | kill $$              |
        | seq 1 2000                       | seq 1                |
        | echo hello                       | echo hello           |
        | echo                             | echo                 |

  @NAME-02
  Rule: Tokens split on whitespace outside quotes; a token wholly in matching quotes loses them

    @upstream
    Scenario Outline: <command> is named "<name>"
      When exec is called with:
        """
        {"command": "<command>", "background": true}
        """
      And the sessions are listed
      Then the detail "sessions.0.name" is '<name>'

      Examples:
        | command                         | name                        |
        | echo 'a b' c                    | echo a b                    |
        | 'my tool' --flag arg            | my tool arg                 |
        | echo \"two words\"              | echo two words              |
        | cmd pre\"quoted part\"post      | cmd pre"quoted part"post    |
        | echo 'unterminated quote        | echo unterminated           |
        | echo   spaced \t  words         | echo spaced                 |
        | '' foo bar                      | foo bar                     |

    @upstream
    Scenario: an escaped double quote does not end a double-quoted run
      When exec is called with:
        """
        {"command": "echo \"say \\\"hi\\\" now\" done", "background": true}
        """
      And the sessions are listed
      Then the details contain:
        """
        {"sessions": [{"name": "echo say \\\"hi\\\" now"}]}
        """

  @NAME-03
  Rule: The target is the first later token not starting with a dash, else the second token; no tokens, no name

    @upstream
    Scenario Outline: <command> is named "<name>"
      When exec runs "<command>" in the background
      And the sessions are listed
      Then the detail "sessions.0.name" is '<name>'

      Examples:
        | command      | name    |
        | tail -n 5    | tail 5  |
        | ls -la -h    | ls -la  |
        | pwd          | pwd     |

    @upstream
    Scenario Outline: a command without tokens (<case>) has no name
      When exec is called with:
        """
        {"command": "<command>", "background": true}
        """
      And the sessions are listed
      Then the detail "sessions.0.sessionId" is "<id>"
      And the detail "sessions.0.name" is absent

      Examples:
        | case              | command    |
        | blank             | \u0020 \t  |
        | only empty quotes | ''         |

  @NAME-04
  Rule: A target longer than 48 characters keeps its first and last 22 characters around "..."

    @upstream
    Scenario Outline: a target of <length> characters
      When exec runs "echo <target>" in the background
      And the sessions are listed
      Then the detail "sessions.0.name" is "echo <name>"

      Examples:
        | length | target                                                         | name                                              |
        | 48     | abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL               | abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL  |
        | 49     | abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLM              | abcdefghijklmnopqrstuv...123456789ABCDEFGHIJKLM   |
        | 62     | abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ | abcdefghijklmnopqrstuv...EFGHIJKLMNOPQRSTUVWXYZ   |

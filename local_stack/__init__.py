"""The blackjack service on one machine, without Docker or AWS: `python -m local_stack`.

It reads the SAM template, runs every `AWS::Serverless::Function` side by side in pools
of execution environments, each a worker process, behind an API Gateway look-alike
(routes, the Lambda TOKEN authorizer, gateway responses, throttling), keeps DynamoDB in
DynamoDB Local (a child JVM) and the secrets under DATA_DIR, and serves web/ at `/`.
Modules: template (loading, intrinsics), store (tables, secrets, DATA_DIR),
dynamodb_local (the JVM, restarted when it dies), netns (its network namespace),
forwarder (its one door, for signed requests), sigv4 (the stack's credentials and their
check), secrets (Secrets Manager), runtime (functions), worker (an execution environment's
process), events (Lambda messages), gateway (API Gateway), apis (the template's APIs),
in_process (those APIs in front of handlers in the caller's process), document (the
OpenAPI document the layer serves), stack (the template's wiring), server (the API's
HTTP port and web/), httpd (the one HTTP server base of that port, the forwarder's and the
secrets endpoint's), wire (HTTP/1.1 messages: the strict request parser), __main__ (the
command).
"""

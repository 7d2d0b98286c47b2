"""The blackjack service on one machine, without Docker or AWS: `python -m local_stack`.

It reads the SAM template, runs every `AWS::Serverless::Function` in this process
behind an API Gateway look-alike (routes, the Lambda TOKEN authorizer, gateway
responses, throttling), keeps DynamoDB and Secrets Manager in moto persisted under
DATA_DIR, and serves web/ at `/`. Modules: template (loading, intrinsics), store (moto,
persistence), runtime (functions), events (Lambda messages), gateway (API Gateway),
stack (the template's wiring), server (HTTP), __main__ (the command).
"""

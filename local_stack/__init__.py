"""The blackjack service on one machine, without Docker or AWS: `python -m local_stack`.

It reads the SAM template, runs every `AWS::Serverless::Function` side by side in pools
of execution environments, each a worker process, behind an API Gateway look-alike
(local_stack.gateway), keeps DynamoDB in DynamoDB Local (a child JVM) and the secrets
under DATA_DIR (local_stack.data_dir), and serves web/ at `/` (local_stack.server). Each
module's docstring says what it does; local_stack/README.md, how they work together.
"""

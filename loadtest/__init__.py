"""`make load`: the Locust load test (locustfile.py) against the local stack or a stage."""

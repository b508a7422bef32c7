"""Drives the emulator's Simple Log Service endpoint with the official Python SDK (aliyun-log-python-sdk).

Usage: sls_sdk.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET PROJECT
Prints one line per check and exits non-zero on the first failure.
"""

import sys

from aliyun.log import LogClient, LogException


def main():
    endpoint, access_key_id, access_key_secret, project = sys.argv[1:5]
    client = LogClient(endpoint, access_key_id, access_key_secret)

    client.create_project(project, "created by the SDK")
    assert client.get_project(project).get_description() == "created by the SDK"
    print("project ok")

    client.create_logstore(project, "app_log", ttl=7, shard_count=2)
    logstore = client.get_logstore(project, "app_log")
    assert (logstore.get_ttl(), logstore.get_shard_count()) == (7, 2), (logstore.get_ttl(), logstore.get_shard_count())
    assert client.list_logstore(project).get_logstores() == ["app_log"]
    print("logstore ok")

    client.delete_logstore(project, "app_log")
    client.delete_project(project)
    try:
        client.get_project(project)
        raise AssertionError("a deleted project was found")
    except LogException as e:
        assert e.get_error_code() == "ProjectNotExist", e.get_error_code()
    print("delete ok")


if __name__ == "__main__":
    main()

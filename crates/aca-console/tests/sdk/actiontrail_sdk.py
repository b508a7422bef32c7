"""Looks up ActionTrail events by event name with Alibaba Cloud's official SDKs, following NextToken
through every page, against the endpoint it is given.

Usage: python3 actiontrail_sdk.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET rpc|v3 EVENT_NAME
  rpc: aliyun-python-sdk-core + aliyun-python-sdk-actiontrail (signature 1.0)
  v3:  alibabacloud_actiontrail20200706 (ACS3-HMAC-SHA256)
Looks at the last hour, two events per page. Prints one JSON line: the pages fetched and, newest
first, each event's name, id and response elements. Exits non-zero with a message on any failure.
"""

import json
import sys
from datetime import datetime, timedelta, timezone

REGION = "cn-hangzhou"
PAGE_SIZE = "2"


def window():
    now = datetime.now(timezone.utc)
    fmt = "%Y-%m-%dT%H:%M:%SZ"
    return (now - timedelta(hours=1)).strftime(fmt), (now + timedelta(minutes=1)).strftime(fmt)


def pages_rpc(endpoint, access_key_id, secret, event_name):
    try:
        from aliyunsdkcore.client import AcsClient
        from aliyunsdkactiontrail.request.v20200706.LookupEventsRequest import LookupEventsRequest
    except ImportError as missing:
        sys.exit(f"missing Python package ({missing}): pip install aliyun-python-sdk-core aliyun-python-sdk-actiontrail")
    client = AcsClient(access_key_id, secret, REGION)
    start, end = window()
    token = None
    while True:
        request = LookupEventsRequest()
        request.set_endpoint(endpoint)
        request.set_protocol_type("http")
        request.set_accept_format("JSON")
        request.set_StartTime(start)
        request.set_EndTime(end)
        request.set_MaxResults(PAGE_SIZE)
        request.set_LookupAttributes([{"Key": "EventName", "Value": event_name}])
        if token:
            request.set_NextToken(token)
        page = json.loads(client.do_action_with_exception(request))
        yield page.get("Events", [])
        token = page.get("NextToken")
        if not token:
            return


def pages_v3(endpoint, access_key_id, secret, event_name):
    try:
        from alibabacloud_actiontrail20200706 import models
        from alibabacloud_actiontrail20200706.client import Client
        from alibabacloud_tea_openapi.utils_models import Config
    except ImportError as missing:
        sys.exit(f"missing Python package ({missing}): pip install alibabacloud_actiontrail20200706")
    client = Client(
        Config(access_key_id=access_key_id, access_key_secret=secret, endpoint=endpoint, protocol="http", region_id=REGION)
    )
    start, end = window()
    token = None
    while True:
        page = client.lookup_events(
            models.LookupEventsRequest(
                start_time=start,
                end_time=end,
                max_results=PAGE_SIZE,
                next_token=token,
                lookup_attribute=[models.LookupEventsRequestLookupAttribute(key="EventName", value=event_name)],
            )
        ).body
        yield page.events or []
        token = page.next_token
        if not token:
            return


def main():
    if len(sys.argv) != 6 or sys.argv[4] not in ("rpc", "v3"):
        sys.exit(__doc__)
    endpoint, access_key_id, secret, flavour, event_name = sys.argv[1:6]
    lookup = pages_rpc if flavour == "rpc" else pages_v3
    pages = 0
    events = []
    for page in lookup(endpoint, access_key_id, secret, event_name):
        pages += 1
        if pages > 100:
            sys.exit("NextToken paging does not end")
        if len(page) > int(PAGE_SIZE):
            sys.exit(f"a page holds {len(page)} events, more than MaxResults={PAGE_SIZE}")
        for event in page:
            if event.get("eventName") != event_name:
                sys.exit(f"the EventName filter let through {event.get('eventName')}")
            events.append(
                {
                    "eventName": event["eventName"],
                    "eventId": event["eventId"],
                    "responseElements": event.get("responseElements"),
                }
            )
    print(json.dumps({"pages": pages, "events": events}))


if __name__ == "__main__":
    try:
        main()
    except Exception as failure:  # the SDKs raise their own exception types; report any as a failure
        sys.exit(f"SDK call failed: {type(failure).__name__}: {failure}")

"""Creates a VPC and a vSwitch and describes them with Alibaba Cloud's official V3 SDK
(alibabacloud_vpc20160428 on the Tea/OpenAPI core), against the endpoint it is given.

By default the SDK signs with ACS3-HMAC-SHA256 (signature V3); with SIGNATURE_ALGORITHM `v2` the same
client takes its legacy RPC path (HMAC-SHA1 signature 1.0 in the query).

Usage: python3 vpc_sdk_v3.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET [SIGNATURE_ALGORITHM]
(or ACA_ENDPOINT, ACA_ACCESS_KEY_ID, ACA_ACCESS_KEY_SECRET, ACA_SIGNATURE_ALGORITHM in the environment).
Prints one JSON line with the created ids; exits non-zero with a message on any failure.
"""

import json
import os
import sys

try:
    from alibabacloud_tea_openapi.utils_models import Config
    from alibabacloud_vpc20160428 import models as vpc_models
    from alibabacloud_vpc20160428.client import Client
except ImportError as missing:
    sys.exit(f"missing Python package ({missing}): pip install alibabacloud_vpc20160428")

REGION = "cn-hangzhou"
# Characters that signatures and URL encodings treat specially, so that any disagreement between
# the SDK and the emulator about canonical encoding shows up as a refused signature.
DESCRIPTION = "created by the V3 SDK: 专有网络 a+b c*d~e/f=g&h%i"


def arguments():
    if len(sys.argv) in (4, 5):
        return sys.argv[1:4] + [sys.argv[4] if len(sys.argv) == 5 else None]
    names = ("ACA_ENDPOINT", "ACA_ACCESS_KEY_ID", "ACA_ACCESS_KEY_SECRET")
    values = [os.environ.get(name) for name in names]
    if not all(values):
        sys.exit(__doc__)
    return values + [os.environ.get("ACA_SIGNATURE_ALGORITHM")]


def expect(condition, what):
    if not condition:
        sys.exit(f"unexpected response: {what}")


def main():
    endpoint, access_key_id, secret, signature_algorithm = arguments()
    client = Client(
        Config(
            access_key_id=access_key_id,
            access_key_secret=secret,
            endpoint=endpoint,
            protocol="http",
            region_id=REGION,
            signature_algorithm=signature_algorithm,
        )
    )

    vpc = client.create_vpc(
        vpc_models.CreateVpcRequest(
            region_id=REGION, vpc_name="sdk-v3-vpc", cidr_block="10.0.0.0/8", description=DESCRIPTION
        )
    ).body
    expect(vpc.vpc_id and vpc.vpc_id.startswith("vpc-") and vpc.request_id, vpc.to_map())

    vswitch = client.create_vswitch(
        vpc_models.CreateVSwitchRequest(
            region_id=REGION,
            vpc_id=vpc.vpc_id,
            zone_id="cn-hangzhou-j",
            cidr_block="10.8.0.0/16",
            v_switch_name="sdk-v3-vsw",
        )
    ).body
    expect(vswitch.v_switch_id and vswitch.v_switch_id.startswith("vsw-"), vswitch.to_map())

    vpcs = client.describe_vpcs(vpc_models.DescribeVpcsRequest(region_id=REGION, vpc_id=vpc.vpc_id)).body
    expect(vpcs.total_count == 1, vpcs.to_map())
    found = vpcs.vpcs.vpc[0]
    expect(found.vpc_id == vpc.vpc_id and found.vpc_name == "sdk-v3-vpc", found.to_map())
    expect(found.v_switch_ids.v_switch_id == [vswitch.v_switch_id], found.to_map())
    expect(found.description == DESCRIPTION, found.to_map())

    vswitches = client.describe_vswitches(
        vpc_models.DescribeVSwitchesRequest(region_id=REGION, vpc_id=vpc.vpc_id)
    ).body
    expect(vswitches.total_count == 1, vswitches.to_map())
    expect(vswitches.v_switches.v_switch[0].zone_id == "cn-hangzhou-j", vswitches.to_map())

    # A refused call surfaces as the SDK's exception with the real error code and status.
    try:
        client.delete_vswitch(vpc_models.DeleteVSwitchRequest(region_id=REGION, v_switch_id="vsw-doesnotexist"))
        sys.exit("deleting a vSwitch that does not exist succeeded")
    except Exception as refused:  # the Tea core raises its own exception types, which differ between versions
        code = getattr(refused, "code", None)
        status = getattr(refused, "status_code", None) or getattr(refused, "statusCode", None)
        expect(code == "InvalidVSwitchId.NotFound", f"{type(refused).__name__}: {refused}")
        expect(status in (None, 404), f"status {status}: {refused}")

    print(json.dumps({"vpcId": vpc.vpc_id, "vSwitchId": vswitch.v_switch_id}))


if __name__ == "__main__":
    main()

"""Creates a VPC and a vSwitch and describes them with Alibaba Cloud's official RPC SDK
(aliyun-python-sdk-core + aliyun-python-sdk-vpc, signature 1.0), against the endpoint it is given.

Usage: python3 vpc_sdk.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET
(or ACA_ENDPOINT, ACA_ACCESS_KEY_ID, ACA_ACCESS_KEY_SECRET in the environment).
Prints one JSON line with the created ids; exits non-zero with a message on any failure.
"""

import json
import os
import sys

try:
    from aliyunsdkcore.client import AcsClient
    from aliyunsdkcore.acs_exception.exceptions import ClientException, ServerException
    from aliyunsdkvpc.request.v20160428.CreateVpcRequest import CreateVpcRequest
    from aliyunsdkvpc.request.v20160428.CreateVSwitchRequest import CreateVSwitchRequest
    from aliyunsdkvpc.request.v20160428.DeleteVSwitchRequest import DeleteVSwitchRequest
    from aliyunsdkvpc.request.v20160428.DescribeVpcsRequest import DescribeVpcsRequest
    from aliyunsdkvpc.request.v20160428.DescribeVSwitchesRequest import DescribeVSwitchesRequest
except ImportError as missing:
    sys.exit(f"missing Python package ({missing}): pip install aliyun-python-sdk-core aliyun-python-sdk-vpc")

REGION = "cn-hangzhou"
# Characters that signatures and URL encodings treat specially, so that any disagreement between
# the SDK and the emulator about canonical encoding shows up as a refused signature.
DESCRIPTION = "created by aliyun-python-sdk-vpc: 专有网络 a+b c*d~e/f=g&h%i"


def arguments():
    if len(sys.argv) == 4:
        return sys.argv[1:4]
    names = ("ACA_ENDPOINT", "ACA_ACCESS_KEY_ID", "ACA_ACCESS_KEY_SECRET")
    values = [os.environ.get(name) for name in names]
    if not all(values):
        sys.exit(__doc__)
    return values


def call(client, endpoint, request):
    """Sends one request to the given endpoint over plain HTTP, JSON response."""
    request.set_endpoint(endpoint)
    request.set_protocol_type("http")
    request.set_accept_format("JSON")
    return json.loads(client.do_action_with_exception(request))


def expect(condition, what):
    if not condition:
        sys.exit(f"unexpected response: {what}")


def main():
    endpoint, access_key_id, secret = arguments()
    client = AcsClient(access_key_id, secret, REGION)

    create_vpc = CreateVpcRequest()
    create_vpc.set_VpcName("sdk-core-vpc")
    create_vpc.set_CidrBlock("172.16.0.0/12")
    create_vpc.set_Description(DESCRIPTION)
    vpc = call(client, endpoint, create_vpc)
    vpc_id = vpc.get("VpcId", "")
    expect(vpc_id.startswith("vpc-") and vpc.get("RequestId"), vpc)

    create_vswitch = CreateVSwitchRequest()
    create_vswitch.set_VpcId(vpc_id)
    create_vswitch.set_ZoneId("cn-hangzhou-h")
    create_vswitch.set_CidrBlock("172.16.1.0/24")
    create_vswitch.set_VSwitchName("sdk-core-vsw")
    vswitch_id = call(client, endpoint, create_vswitch).get("VSwitchId", "")
    expect(vswitch_id.startswith("vsw-"), vswitch_id)

    describe_vpcs = DescribeVpcsRequest()
    describe_vpcs.set_VpcId(vpc_id)
    vpcs = call(client, endpoint, describe_vpcs)
    expect(vpcs.get("TotalCount") == 1, vpcs)
    found = vpcs["Vpcs"]["Vpc"][0]
    expect(found["VpcId"] == vpc_id and found["VpcName"] == "sdk-core-vpc", found)
    expect(found["VSwitchIds"]["VSwitchId"] == [vswitch_id], found)
    expect(found["Description"] == DESCRIPTION, found)

    describe_vswitches = DescribeVSwitchesRequest()
    describe_vswitches.set_VpcId(vpc_id)
    vswitches = call(client, endpoint, describe_vswitches)
    expect(vswitches.get("TotalCount") == 1, vswitches)
    expect(vswitches["VSwitches"]["VSwitch"][0]["CidrBlock"] == "172.16.1.0/24", vswitches)

    # A refused call surfaces as the SDK's ServerException with the real error code.
    try:
        delete = DeleteVSwitchRequest()
        delete.set_VSwitchId("vsw-doesnotexist")
        call(client, endpoint, delete)
        sys.exit("deleting a vSwitch that does not exist succeeded")
    except ServerException as refused:
        expect(refused.get_error_code() == "InvalidVSwitchId.NotFound", refused)
        expect(refused.get_http_status() == 404, refused)

    print(json.dumps({"vpcId": vpc_id, "vSwitchId": vswitch_id}))


if __name__ == "__main__":
    try:
        main()
    except (ClientException, ServerException) as failure:
        sys.exit(f"SDK call failed: {failure}")

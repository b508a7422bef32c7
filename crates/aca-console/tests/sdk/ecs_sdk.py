"""Launches, describes, stops and deletes an ECS instance (in a new VPC, vSwitch and security group)
with Alibaba Cloud's official SDKs, against the endpoint it is given. The requests carry structured
parameters (SystemDisk.Category, Tag.N.Key, a JSON-array InstanceIds) as the SDKs encode them.

Usage: python3 ecs_sdk.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET rpc|v3
  rpc: aliyun-python-sdk-core + aliyun-python-sdk-ecs + aliyun-python-sdk-vpc (signature 1.0)
  v3:  alibabacloud_ecs20140526 + alibabacloud_vpc20160428 (ACS3-HMAC-SHA256)
Prints one JSON line with the ids it made; exits non-zero with a message on any failure.
"""

import json
import sys

REGION = "cn-hangzhou"
ZONE = "cn-hangzhou-h"
IMAGE = "aliyun_3_x64_20G_alibase_20240528.vhd"
INSTANCE_TYPE = "ecs.g7.large"


def expect(condition, what):
    if not condition:
        sys.exit(f"unexpected response: {what}")


class RpcCloud:
    """The aliyun-python-sdk-* request classes on one AcsClient."""

    def __init__(self, endpoint, access_key_id, secret):
        try:
            from aliyunsdkcore.client import AcsClient
            from aliyunsdkecs.request.v20140526 import (
                AuthorizeSecurityGroupRequest,
                CreateSecurityGroupRequest,
                DeleteInstanceRequest,
                DescribeInstancesRequest,
                RunInstancesRequest,
                StopInstanceRequest,
            )
            from aliyunsdkvpc.request.v20160428 import CreateVpcRequest, CreateVSwitchRequest
        except ImportError as missing:
            sys.exit(
                f"missing Python package ({missing}): "
                "pip install aliyun-python-sdk-core aliyun-python-sdk-ecs aliyun-python-sdk-vpc"
            )
        self.client = AcsClient(access_key_id, secret, REGION)
        self.endpoint = endpoint
        self.ecs = {
            "AuthorizeSecurityGroup": AuthorizeSecurityGroupRequest.AuthorizeSecurityGroupRequest,
            "CreateSecurityGroup": CreateSecurityGroupRequest.CreateSecurityGroupRequest,
            "DeleteInstance": DeleteInstanceRequest.DeleteInstanceRequest,
            "DescribeInstances": DescribeInstancesRequest.DescribeInstancesRequest,
            "RunInstances": RunInstancesRequest.RunInstancesRequest,
            "StopInstance": StopInstanceRequest.StopInstanceRequest,
        }
        self.vpc = {
            "CreateVpc": CreateVpcRequest.CreateVpcRequest,
            "CreateVSwitch": CreateVSwitchRequest.CreateVSwitchRequest,
        }

    def call(self, action, **setters):
        request = (self.ecs.get(action) or self.vpc[action])()
        for name, value in setters.items():
            getattr(request, f"set_{name}")(value)
        request.set_endpoint(self.endpoint)
        request.set_protocol_type("http")
        request.set_accept_format("JSON")
        return json.loads(self.client.do_action_with_exception(request))

    def network(self):
        vpc_id = self.call("CreateVpc", VpcName="ecs-rpc", CidrBlock="192.168.0.0/16")["VpcId"]
        vswitch_id = self.call("CreateVSwitch", VpcId=vpc_id, ZoneId=ZONE, CidrBlock="192.168.1.0/24")["VSwitchId"]
        group_id = self.call("CreateSecurityGroup", VpcId=vpc_id, SecurityGroupName="web-sg")["SecurityGroupId"]
        self.call("AuthorizeSecurityGroup", SecurityGroupId=group_id, IpProtocol="tcp", PortRange="22/22", SourceCidrIp="0.0.0.0/0")
        return vpc_id, vswitch_id, group_id

    def run_instance(self, vswitch_id, group_id):
        body = self.call(
            "RunInstances",
            ImageId=IMAGE,
            InstanceType=INSTANCE_TYPE,
            VSwitchId=vswitch_id,
            SecurityGroupId=group_id,
            InstanceName="sdk-web-01",
            SystemDiskCategory="cloud_essd",
            SystemDiskSize="40",
            Tags=[{"Key": "team", "Value": "docs"}],
        )
        return body["InstanceIdSets"]["InstanceIdSet"]

    def describe(self, instance_id):
        body = self.call("DescribeInstances", InstanceIds=json.dumps([instance_id]))
        expect(body["TotalCount"] == 1, body)
        found = body["Instances"]["Instance"][0]
        return {
            "status": found["Status"],
            "name": found["InstanceName"],
            "type": found["InstanceType"],
            "vswitch": found["VpcAttributes"]["VSwitchId"],
            "tags": [(t["TagKey"], t["TagValue"]) for t in found["Tags"]["Tag"]],
        }

    def stop_and_delete(self, instance_id):
        self.call("StopInstance", InstanceId=instance_id)
        expect(self.describe(instance_id)["status"] == "Stopped", "instance did not stop")
        self.call("DeleteInstance", InstanceId=instance_id)


class V3Cloud:
    """The alibabacloud_* Tea clients."""

    def __init__(self, endpoint, access_key_id, secret):
        try:
            from alibabacloud_ecs20140526 import models as ecs_models
            from alibabacloud_ecs20140526.client import Client as EcsClient
            from alibabacloud_tea_openapi.utils_models import Config
            from alibabacloud_vpc20160428 import models as vpc_models
            from alibabacloud_vpc20160428.client import Client as VpcClient
        except ImportError as missing:
            sys.exit(f"missing Python package ({missing}): pip install alibabacloud_ecs20140526 alibabacloud_vpc20160428")

        def config():
            return Config(access_key_id=access_key_id, access_key_secret=secret, endpoint=endpoint, protocol="http", region_id=REGION)

        self.ecs, self.m = EcsClient(config()), ecs_models
        self.vpc, self.vm = VpcClient(config()), vpc_models

    def network(self):
        vpc_id = self.vpc.create_vpc(self.vm.CreateVpcRequest(region_id=REGION, vpc_name="ecs-v3", cidr_block="192.168.0.0/16")).body.vpc_id
        vswitch_id = self.vpc.create_vswitch(
            self.vm.CreateVSwitchRequest(region_id=REGION, vpc_id=vpc_id, zone_id=ZONE, cidr_block="192.168.1.0/24")
        ).body.v_switch_id
        group_id = self.ecs.create_security_group(
            self.m.CreateSecurityGroupRequest(region_id=REGION, vpc_id=vpc_id, security_group_name="web-sg")
        ).body.security_group_id
        self.ecs.authorize_security_group(
            self.m.AuthorizeSecurityGroupRequest(
                region_id=REGION, security_group_id=group_id, ip_protocol="tcp", port_range="22/22", source_cidr_ip="0.0.0.0/0"
            )
        )
        return vpc_id, vswitch_id, group_id

    def run_instance(self, vswitch_id, group_id):
        body = self.ecs.run_instances(
            self.m.RunInstancesRequest(
                region_id=REGION,
                image_id=IMAGE,
                instance_type=INSTANCE_TYPE,
                v_switch_id=vswitch_id,
                security_group_id=group_id,
                instance_name="sdk-web-01",
                system_disk=self.m.RunInstancesRequestSystemDisk(category="cloud_essd", size="40"),
                tag=[self.m.RunInstancesRequestTag(key="team", value="docs")],
            )
        ).body
        return body.instance_id_sets.instance_id_set

    def describe(self, instance_id):
        body = self.ecs.describe_instances(
            self.m.DescribeInstancesRequest(region_id=REGION, instance_ids=json.dumps([instance_id]))
        ).body
        expect(body.total_count == 1, body.to_map())
        found = body.instances.instance[0]
        return {
            "status": found.status,
            "name": found.instance_name,
            "type": found.instance_type,
            "vswitch": found.vpc_attributes.v_switch_id,
            "tags": [(t.tag_key, t.tag_value) for t in found.tags.tag],
        }

    def stop_and_delete(self, instance_id):
        self.ecs.stop_instance(self.m.StopInstanceRequest(instance_id=instance_id))
        expect(self.describe(instance_id)["status"] == "Stopped", "instance did not stop")
        self.ecs.delete_instance(self.m.DeleteInstanceRequest(instance_id=instance_id))


def main():
    if len(sys.argv) != 5 or sys.argv[4] not in ("rpc", "v3"):
        sys.exit(__doc__)
    endpoint, access_key_id, secret, flavour = sys.argv[1:5]
    cloud = (RpcCloud if flavour == "rpc" else V3Cloud)(endpoint, access_key_id, secret)

    vpc_id, vswitch_id, group_id = cloud.network()
    instance_ids = cloud.run_instance(vswitch_id, group_id)
    expect(len(instance_ids) == 1 and instance_ids[0].startswith("i-"), instance_ids)
    instance_id = instance_ids[0]
    described = cloud.describe(instance_id)
    expected = {
        "status": "Running",
        "name": "sdk-web-01",
        "type": INSTANCE_TYPE,
        "vswitch": vswitch_id,
        "tags": [("team", "docs")],
    }
    expect(described == expected, f"{described} != {expected}")
    cloud.stop_and_delete(instance_id)
    print(json.dumps({"vpcId": vpc_id, "vSwitchId": vswitch_id, "securityGroupId": group_id, "instanceId": instance_id}))


if __name__ == "__main__":
    try:
        main()
    except Exception as failure:  # the SDKs raise their own exception types; report any as a failure
        sys.exit(f"SDK call failed: {type(failure).__name__}: {failure}")

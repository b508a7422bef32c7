"""Drives the emulator's OSS endpoint with the official Python SDK (oss2).

Usage: oss_sdk.py ENDPOINT ACCESS_KEY_ID ACCESS_KEY_SECRET BUCKET
Prints one line per check and exits non-zero on the first failure.
"""

import sys

import oss2
import requests


def main():
    endpoint, access_key_id, access_key_secret, bucket_name = sys.argv[1:5]
    auth = oss2.Auth(access_key_id, access_key_secret)
    bucket = oss2.Bucket(auth, endpoint, bucket_name)

    bucket.create_bucket(oss2.BUCKET_ACL_PRIVATE)
    print("create_bucket ok")

    names = [b.name for b in oss2.BucketIterator(oss2.Service(auth, endpoint))]
    assert bucket_name in names, names
    print("list_buckets ok")

    info = bucket.get_bucket_info()
    assert info.name == bucket_name and info.acl.grant == "private", (info.name, info.acl.grant)
    print("get_bucket_info ok")

    bucket.put_bucket_acl(oss2.BUCKET_ACL_PUBLIC_READ)
    assert bucket.get_bucket_acl().acl == "public-read"
    print("bucket_acl ok")

    result = bucket.put_object("notes/hello.txt", b"hello from oss2", headers={"x-oss-meta-author": "sdk"})
    assert result.status == 200 and result.crc is not None, result.status
    print("put_object ok")

    got = bucket.get_object("notes/hello.txt")
    assert got.read() == b"hello from oss2"
    assert got.headers.get("x-oss-meta-author") == "sdk", dict(got.headers)
    print("get_object ok")

    url = bucket.sign_url("GET", "notes/hello.txt", 60)
    presigned = requests.get(url)
    assert presigned.status_code == 200, (presigned.status_code, presigned.text)
    assert presigned.content == b"hello from oss2", presigned.content
    print("presigned_url ok")

    meta = bucket.head_object("notes/hello.txt")
    assert meta.content_length == len(b"hello from oss2"), meta.content_length
    print("head_object ok")

    keys = [o.key for o in oss2.ObjectIterator(bucket, prefix="notes/")]
    assert keys == ["notes/hello.txt"], keys
    print("list_objects ok")

    rule = oss2.models.LifecycleRule("expire-notes", "notes/", status=oss2.models.LifecycleRule.ENABLED,
                                     expiration=oss2.models.LifecycleExpiration(days=3))
    bucket.put_bucket_lifecycle(oss2.models.BucketLifecycle([rule]))
    rules = bucket.get_bucket_lifecycle().rules
    assert [(r.id, r.prefix, r.expiration.days) for r in rules] == [("expire-notes", "notes/", 3)], rules
    print("lifecycle ok")

    assert bucket.get_bucket_versioning().status is None
    config = oss2.models.BucketVersioningConfig()
    config.status = oss2.BUCKET_VERSIONING_ENABLE
    bucket.put_bucket_versioning(config)
    assert bucket.get_bucket_versioning().status == "Enabled"
    print("versioning ok")

    try:
        bucket.get_bucket_website()
        raise AssertionError("a website configuration was found before one was set")
    except oss2.exceptions.NoSuchWebsite as e:
        assert e.status == 404, e.status
    bucket.put_bucket_website(oss2.models.BucketWebsite("index.html", "error.html"))
    website = bucket.get_bucket_website()
    assert (website.index_file, website.error_file) == ("index.html", "error.html"), website
    bucket.delete_bucket_website()
    print("website ok")

    try:
        bucket.get_object("notes/missing.txt")
        raise AssertionError("a missing object was found")
    except oss2.exceptions.NoSuchKey as e:
        assert e.status == 404 and e.request_id, (e.status, e.request_id)
    print("no_such_key ok")

    bucket.delete_object("notes/hello.txt")
    bucket.delete_bucket()
    try:
        bucket.get_bucket_info()
        raise AssertionError("a deleted bucket was found")
    except oss2.exceptions.NoSuchBucket:
        pass
    print("delete ok")


if __name__ == "__main__":
    main()

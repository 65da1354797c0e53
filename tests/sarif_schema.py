"""The part of the SARIF 2.1.0 schema (OASIS, sarif-schema-2.1.0.json) that revoke-audit's log
uses, written out here because the official file cannot be downloaded in the test environment.

For every object the log contains it keeps the standard's required properties, its closed list
of property names (``additionalProperties: false`` in the standard, so a misspelt or invented
property fails), the types and enumerations of the values we fill, and the ``minimum`` of line
numbers and indexes.  Property names we do not use are allowed with any value, as the standard
types them."""
from __future__ import annotations

import re
from urllib.parse import unquote


def _obj(props: dict, required: tuple[str, ...] = (), names: str = "") -> dict:
    """An object with the standard's property ``names`` (space-separated), of which ``props``
    are typed here; ``additionalProperties: false`` as in the standard."""
    allowed = {n: {} for n in names.split()}
    allowed.update(props)
    return {"type": "object", "properties": allowed, "required": list(required),
            "additionalProperties": False}


_STR = {"type": "string"}
_INDEX = {"type": "integer", "minimum": -1}
_LEVEL = {"type": "string", "enum": ["none", "note", "warning", "error"]}
_BAG = {"type": "object"}

_MESSAGE = dict(_obj({"text": _STR, "id": _STR, "properties": _BAG}, (), "markdown arguments"),
                anyOf=[{"required": ["text"]}, {"required": ["id"]}])
_MULTIFORMAT = _obj({"text": _STR}, ("text",), "markdown properties")
_ARTIFACT_LOCATION = _obj({"uri": _STR, "uriBaseId": _STR, "index": _INDEX},
                          (), "description properties")
_REGION = _obj({"startLine": {"type": "integer", "minimum": 1}}, (),
               "startColumn endLine endColumn charOffset charLength byteOffset byteLength "
               "snippet message sourceLanguage properties")
_LOCATION = _obj({"physicalLocation": _obj({"artifactLocation": _ARTIFACT_LOCATION,
                                            "region": _REGION},
                                           (), "address contextRegion properties")},
                 (), "id logicalLocations message annotations relationships properties")
_RULE = _obj({"id": _STR, "shortDescription": _MULTIFORMAT,
              "defaultConfiguration": _obj({"level": _LEVEL}, (),
                                           "enabled rank parameters properties")},
             ("id",), "deprecatedIds guid deprecatedGuids name deprecatedNames fullDescription "
                      "messageStrings helpUri help relationships properties")
_DRIVER = _obj({"name": _STR, "version": _STR, "rules": {"type": "array", "items": _RULE}},
               ("name",), "guid organization product productSuite shortDescription "
                          "fullDescription fullName semanticVersion dottedQuadFileVersion "
                          "releaseDateUtc downloadUri informationUri globalMessageStrings "
                          "notifications taxa locations language contents isComprehensive "
                          "localizedDataSemanticVersion minimumRequiredLocalizedDataSemanticVersion "
                          "associatedComponent translationMetadata supportedTaxonomies properties")
_RESULT = _obj({"ruleId": _STR, "ruleIndex": _INDEX, "level": _LEVEL, "message": _MESSAGE,
                "locations": {"type": "array", "items": _LOCATION},
                "partialFingerprints": {"type": "object", "additionalProperties": _STR},
                "properties": _BAG},
               ("message",), "rule kind analysisTarget guid correlationGuid occurrenceCount "
                             "fingerprints stacks codeFlows graphs graphTraversals "
                             "relatedLocations suppressions baselineState rank attachments "
                             "hostedViewerUri workItemUris provenance fixes taxa webRequest "
                             "webResponse")
_RUN = _obj({"tool": _obj({"driver": _DRIVER}, ("driver",), "extensions properties"),
             "originalUriBaseIds": {"type": "object", "additionalProperties": _ARTIFACT_LOCATION},
             "results": {"type": "array", "items": _RESULT}},
            ("tool",), "invocations conversion language versionControlProvenance artifacts "
                       "logicalLocations graphs automationDetails runAggregates baselineGuid "
                       "redactionTokens defaultEncoding defaultSourceLanguage newlineSequences "
                       "columnKind externalPropertyFileReferences threadFlowLocations taxonomies "
                       "addresses translations policies webRequests webResponses "
                       "specialLocations properties")
SCHEMA = {
    "$schema": "http://json-schema.org/draft-04/schema#",
    **_obj({"$schema": _STR, "version": {"type": "string", "enum": ["2.1.0"]},
            "runs": {"type": "array", "items": _RUN}},
           ("version", "runs"), "inlineExternalProperties properties"),
}

# RFC 3986: a URI reference holds unreserved and reserved characters and %XX escapes only.
_URI_REFERENCE = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")


def validate(log: dict) -> None:
    """Raise if ``log`` breaks the schema above, or if an ``artifactLocation.uri`` is not an
    RFC 3986 URI reference (the standard's ``format: uri-reference``), or if a relative one
    could be read as having a scheme."""
    import jsonschema

    jsonschema.Draft4Validator(SCHEMA).validate(log)
    for run in log["runs"]:
        for base in run.get("originalUriBaseIds", {}).values():
            assert base["uri"].endswith("/"), base  # SARIF 2.1.0 §3.14.14: ends with one "/"
        for result in run["results"]:
            for loc in result["locations"]:
                uri = loc["physicalLocation"]["artifactLocation"]["uri"]
                assert _URI_REFERENCE.match(uri), uri
                if "uriBaseId" in loc["physicalLocation"]["artifactLocation"]:
                    assert ":" not in uri.split("/")[0], uri  # no scheme in a relative reference
                assert unquote(uri)  # decodes

"""Validates an OpenAPI document with openapi-spec-validator, and refuses what YAML accepts
silently but a reader would not mean: a key given twice.

Usage: python check_openapi.py openapi.yaml   (exit 1 with every problem listed)
"""

import sys

import yaml
from openapi_spec_validator import OpenAPIV30SpecValidator


class StrictLoader(yaml.SafeLoader):
    """A loader that refuses a mapping with the same key twice."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def main(path):
    with open(path, encoding="utf-8") as handle:
        try:
            document = yaml.load(handle, Loader=StrictLoader)
        except yaml.YAMLError as error:
            print(f"{path}: not valid YAML: {error}")
            return 1
    problems = list(OpenAPIV30SpecValidator(document).iter_errors())
    for problem in problems:
        where = "/".join(str(part) for part in problem.absolute_path) or "(root)"
        print(f"{path}: {where}: {problem.message}")
    if problems:
        print(f"{path}: {len(problems)} problem(s): not a valid OpenAPI {document.get('openapi')} document")
        return 1
    print(f"{path}: a valid OpenAPI {document['openapi']} document")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

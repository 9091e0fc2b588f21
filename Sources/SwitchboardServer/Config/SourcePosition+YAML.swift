import Yams

extension SourcePosition {
    /// Where in the YAML `text` a decoding error of it is: the mark of a syntax error, or the
    /// deepest key of a schema error's coding path that the text holds. `nil` when neither is known.
    ///
    /// The text is parsed again, which costs as much as the failed decoding: this runs only for
    /// a file that does not decode.
    package static func of(_ error: any Error, in text: String) -> SourcePosition? {
        switch error {
        case let error as YamlError:
            switch error {
            case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
                return SourcePosition(mark)
            case .duplicatedKeysInMapping(_, let context):
                return SourcePosition(context.mark)
            default:
                return nil
            }
        case let error as DecodingError:
            let context: DecodingError.Context
            switch error {
            case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found),
                .valueNotFound(_, let found):
                context = found
            @unknown default:
                return nil
            }
            guard let root = root(of: text) else { return nil }
            return position(of: context.codingPath, from: root)
        default:
            return nil
        }
    }

    /// Where the mapping whose `id` is `id` starts in the YAML (or JSON) `text`: the place of a
    /// route or a rule named by a finding. `nil` when the text does not parse or holds no such item.
    package static func ofItem(_ id: String, in text: String) -> SourcePosition? {
        guard let root = root(of: text) else { return nil }
        return item(id, under: root)
    }

    private init?(_ mark: Mark?) {
        guard let mark else { return nil }
        self.init(line: mark.line, column: mark.column)
    }

    private static func root(of text: String) -> Node? {
        try? Parser(yaml: text, resolver: Yams.Resolver.basic.appending(.merge)).singleRoot()
    }

    /// The mark of the deepest node on `path` (a mapping value is marked by its key, the line
    /// an editor shows for it).
    private static func position(of path: [any CodingKey], from root: Node) -> SourcePosition? {
        var node = root
        var found = SourcePosition(root.mark)
        for key in path {
            switch node {
            case .mapping(let mapping):
                guard let pair = mapping.first(where: { $0.key.string == key.stringValue }) else { return found }
                found = SourcePosition(pair.key.mark) ?? found
                node = pair.value
            case .sequence(let sequence):
                guard let index = key.intValue, sequence.indices.contains(index) else { return found }
                node = sequence[index]
                found = SourcePosition(node.mark) ?? found
            default:
                return found
            }
        }
        return found
    }

    private static func item(_ id: String, under node: Node) -> SourcePosition? {
        switch node {
        case .mapping(let mapping):
            if mapping.contains(where: { $0.key.string == "id" && $0.value.string == id }) {
                return SourcePosition(mapping.mark)
            }
            for pair in mapping {
                if let found = item(id, under: pair.value) { return found }
            }
            return nil
        case .sequence(let sequence):
            for element in sequence {
                if let found = item(id, under: element) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}

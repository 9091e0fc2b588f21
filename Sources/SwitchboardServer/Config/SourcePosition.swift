/// A place in a config file: 1-based line and column, as an editor and a CI annotation count them.
package struct SourcePosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The line, from 1.
    package var line: Int
    /// The column, from 1 (counted in Unicode scalars, as the YAML parser counts them).
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    package var description: String { "\(line):\(column)" }
}

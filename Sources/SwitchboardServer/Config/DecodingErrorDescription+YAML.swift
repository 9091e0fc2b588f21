import SwitchboardCore
import Yams

extension DecodingErrorDescription {
    /// One line for an error of a config file: ``DecodingErrorDescription/describe(_:)``,
    /// with a YAML syntax error named as such.
    static func describeConfigError(_ error: any Error) -> String {
        if let error = error as? YamlError {
            return "YAML syntax error: \(error)"
        }
        return describe(error)
    }
}

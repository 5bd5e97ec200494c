package io.cctflow.core.task;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * A task definition (seed 002 Listings 3.4 and 3.5): when a method's {@code className.methodName}
 * matches, the method's nodes and their subtrees get the task named by the template.
 *
 * <p>The template may contain {@code ${group}} placeholders naming named groups of a REGEX pattern,
 * e.g. {@code service-${service-name}} with {@code (?<service-name>[^.]+)}. Group names may contain
 * {@code -} as in the thesis, which regex syntax does not allow, so the pattern is compiled
 * with the groups renamed. A PREFIX definition's template is a static name. {@code $} not followed
 * by {@code {} is a literal.
 *
 * <p>Patterns are user input that runs on every new method inside the streaming job, so they are
 * compiled with RE2/J, which matches in time linear in the input: a pattern such as {@code (a+)+$}
 * cannot stall the job. RE2 syntax has no back references and no look-around; such patterns are
 * rejected with a message saying so.
 *
 * <p>Immutable and thread-safe. Construction validates everything and throws {@link
 * IllegalArgumentException} naming the definition and what to fix.
 */
public final class TaskDefinition {
    private static final java.util.regex.Pattern GROUP_NAME = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
    private static final String RE2_HINT = " (patterns use RE2 syntax, matched in linear time: no back references,"
            + " no look-ahead or look-behind)";

    private final String id;
    private final MatchType type;
    private final String pattern;
    private final String nameTemplate;
    private final Pattern compiled;
    /** Template split into literals (even indexes) and Java group names (odd indexes). */
    private final String[] templateParts;

    public TaskDefinition(String id, MatchType type, String pattern, String nameTemplate) {
        this.id = require(id, "id", id);
        this.type = type;
        this.pattern = require(pattern, "pattern", id);
        this.nameTemplate = require(nameTemplate, "task name template", id);
        if (type == null) {
            throw new IllegalArgumentException("Task definition '" + id + "': match type is missing, use PREFIX or REGEX");
        }
        Map<String, String> groups = new LinkedHashMap<>();
        if (type == MatchType.REGEX) {
            String javaPattern = renameGroups(pattern, groups, id);
            try {
                compiled = Pattern.compile(javaPattern);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("Task definition '" + id + "': invalid regular expression '" + pattern
                        + "': " + e.getMessage() + RE2_HINT, e);
            }
        } else {
            compiled = null;
        }
        templateParts = parseTemplate(nameTemplate, groups, id, type);
    }

    /** A PREFIX definition with a static task name (Listing 3.4). */
    public static TaskDefinition prefix(String id, String prefix, String taskName) {
        return new TaskDefinition(id, MatchType.PREFIX, prefix, taskName);
    }

    /** A REGEX definition whose task name may use the pattern's named groups (Listing 3.5). */
    public static TaskDefinition regex(String id, String regex, String nameTemplate) {
        return new TaskDefinition(id, MatchType.REGEX, regex, nameTemplate);
    }

    public String id() {
        return id;
    }

    public MatchType type() {
        return type;
    }

    public String pattern() {
        return pattern;
    }

    public String nameTemplate() {
        return nameTemplate;
    }

    /**
     * The task name for a method, or {@code null} when it does not match. A regex match whose
     * template names a group that did not take part in the match (an optional group) yields no
     * task, so no half-filled name like {@code service-} is ever produced.
     *
     * @param qualifiedName {@code className.methodName}, e.g. {@code com.mycompany.service.UserRegister.register}
     */
    public String taskNameFor(String qualifiedName) {
        if (qualifiedName == null) {
            return null;
        }
        if (type == MatchType.PREFIX) {
            return qualifiedName.startsWith(pattern) ? templateParts[0] : null;
        }
        Matcher m = compiled.matcher(qualifiedName);
        if (!m.find()) {
            return null;
        }
        StringBuilder name = new StringBuilder(templateParts[0]);
        for (int i = 1; i < templateParts.length; i += 2) {
            String value = m.group(templateParts[i]);
            if (value == null) {
                return null;
            }
            name.append(value).append(templateParts[i + 1]);
        }
        return name.toString();
    }

    private static String require(String value, String what, String id) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("Task definition '" + id + "': " + what + " is missing or empty");
        }
        return value;
    }

    /**
     * Rewrites {@code (?<name>} to legal group names g0, g1, ..., skipping escapes and character
     * classes; rejects back references and look-around, which RE2 cannot match.
     */
    private static String renameGroups(String regex, Map<String, String> groups, String id) {
        StringBuilder out = new StringBuilder(regex.length());
        boolean inClass = false;
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                if (!inClass && regex.charAt(i + 1) == 'k' && i + 2 < regex.length() && regex.charAt(i + 2) == '<') {
                    throw new IllegalArgumentException("Task definition '" + id + "': invalid regular expression '"
                            + regex + "': back reference \\k<...> at index " + i + RE2_HINT);
                }
                out.append(c).append(regex.charAt(i + 1));
                i += 2;
                continue;
            }
            if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (regex.startsWith("(?=", i) || regex.startsWith("(?!", i) || regex.startsWith("(?<=", i)
                    || regex.startsWith("(?<!", i)) {
                throw new IllegalArgumentException("Task definition '" + id + "': invalid regular expression '"
                        + regex + "': look-around at index " + i + RE2_HINT);
            } else if (c == '(' && regex.startsWith("(?<", i) && i + 3 < regex.length()) {
                int end = regex.indexOf('>', i + 3);
                String name = end < 0 ? "" : regex.substring(i + 3, end);
                if (!GROUP_NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("Task definition '" + id + "': invalid group name '" + name
                            + "' in '" + regex + "'; use letters, digits, '_' and '-', starting with a letter");
                }
                if (groups.containsKey(name)) {
                    throw new IllegalArgumentException("Task definition '" + id + "': group '" + name
                            + "' is defined twice in '" + regex + "'");
                }
                String javaName = "g" + groups.size();
                groups.put(name, javaName);
                out.append("(?<").append(javaName).append('>');
                i = end + 1;
                continue;
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static String[] parseTemplate(String template, Map<String, String> groups, String id, MatchType type) {
        List<String> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            if (template.startsWith("${", i)) {
                int end = template.indexOf('}', i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("Task definition '" + id + "': unclosed '${' in task name template '"
                            + template + "'");
                }
                String name = template.substring(i + 2, end);
                if (type == MatchType.PREFIX) {
                    throw new IllegalArgumentException("Task definition '" + id + "': template '" + template
                            + "' uses ${" + name + "} but a PREFIX definition has no groups; use REGEX or a static name");
                }
                String javaName = groups.get(name);
                if (javaName == null) {
                    throw new IllegalArgumentException("Task definition '" + id + "': template '" + template
                            + "' uses ${" + name + "} but the regular expression has no group named '" + name
                            + "'; its named groups are " + groups.keySet());
                }
                parts.add(literal.toString());
                parts.add(javaName);
                literal.setLength(0);
                i = end + 1;
            } else {
                literal.append(template.charAt(i++));
            }
        }
        parts.add(literal.toString());
        return parts.toArray(new String[0]);
    }

    @Override
    public String toString() {
        return "TaskDefinition[" + id + ", " + type + " '" + pattern + "' -> '" + nameTemplate + "']";
    }
}

package places

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"

	"tripplan/internal/planner"
)

// opinionTagsJSON is the catalogue of canned reasons (see its "about").
//
//go:embed opinion_tags.json
var opinionTagsJSON []byte

// OpinionTag is a canned reason given with an opinion: a stable id (stored in opinions'
// tag_ids), the kind of opinion it goes with, and its label in English and Korean.
type OpinionTag struct {
	ID         string
	Type       planner.OpinionType
	En, Ko     string
	categories []string // taxonomy ids of any level; none: offered for every category
}

// Label is the tag's label in a language: "ko" is Korean, anything else English.
func (t OpinionTag) Label(lang string) string {
	if lang == "ko" {
		return t.Ko
	}
	return t.En
}

// OpinionTags is the one catalogue of canned reasons, for the API (GET /opinion-tags) and the
// pages' reason chips alike.
type OpinionTags struct {
	tax  *Taxonomy
	tags []OpinionTag // POSITIVE, then NEUTRAL, then NEGATIVE; in the file's order within each
	byID map[string]int
}

// NewOpinionTags loads the embedded catalogue. It panics when the catalogue is malformed,
// which its test rules out.
func NewOpinionTags(tax *Taxonomy) *OpinionTags {
	c, err := loadOpinionTags(opinionTagsJSON, tax)
	if err != nil {
		panic(err)
	}
	return c
}

func loadOpinionTags(data []byte, tax *Taxonomy) (*OpinionTags, error) {
	var file struct {
		Tags []struct {
			ID         string   `json:"id"`
			Type       string   `json:"type"`
			En         string   `json:"en"`
			Ko         string   `json:"ko"`
			Categories []string `json:"categories"`
		} `json:"tags"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("opinion tags: %w", err)
	}
	c := &OpinionTags{tax: tax, byID: map[string]int{}}
	for _, t := range file.Tags {
		if _, dup := c.byID[t.ID]; dup || t.ID == "" {
			return nil, fmt.Errorf("opinion tags: id %q is empty or used twice", t.ID)
		}
		if typeRank(planner.OpinionType(t.Type)) < 0 || t.En == "" || t.Ko == "" {
			return nil, fmt.Errorf("opinion tags: %s needs a type and both labels", t.ID)
		}
		for _, cat := range t.Categories {
			if _, ok := tax.Lineage(cat); !ok {
				return nil, fmt.Errorf("opinion tags: %s names %s, which is not a category", t.ID, cat)
			}
		}
		c.byID[t.ID] = len(c.tags)
		c.tags = append(c.tags, OpinionTag{ID: t.ID, Type: planner.OpinionType(t.Type), En: t.En, Ko: t.Ko, categories: t.Categories})
	}
	slices.SortStableFunc(c.tags, func(a, b OpinionTag) int { return typeRank(a.Type) - typeRank(b.Type) })
	for i, t := range c.tags {
		c.byID[t.ID] = i
	}
	return c, nil
}

// typeRank orders opinion types as the pages show them; -1 for an unknown type.
func typeRank(t planner.OpinionType) int {
	return slices.Index([]planner.OpinionType{planner.OpinionPositive, planner.OpinionNeutral, planner.OpinionNegative}, t)
}

// All is every tag of the catalogue.
func (c *OpinionTags) All() []OpinionTag { return slices.Clone(c.tags) }

// For is the tags offered for a category id of any level: those listing it or one of its
// ancestors, and those listing no category. False for an id not in the taxonomy.
func (c *OpinionTags) For(categoryID string) ([]OpinionTag, bool) {
	lineage, ok := c.tax.Lineage(categoryID)
	if !ok {
		return nil, false
	}
	var out []OpinionTag
	for _, t := range c.tags {
		if len(t.categories) == 0 || slices.ContainsFunc(t.categories, func(cat string) bool { return slices.Contains(lineage, cat) }) {
			out = append(out, t)
		}
	}
	return out, true
}

// Lookup finds a tag by its id.
func (c *OpinionTags) Lookup(id string) (OpinionTag, bool) {
	i, ok := c.byID[id]
	if !ok {
		return OpinionTag{}, false
	}
	return c.tags[i], true
}

import runtime0 from "ajv/dist/runtime/ucs2length.js";
import runtime1 from "ajv/dist/runtime/ucs2length.js";
export const Note = fastFirst(fast0, validate20);
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://agentproto.dev/schemas/nullable/1/Note.schema.json","type":"object","required":["title"],"properties":{"title":{"type":["string","null"],"maxLength":10},"tags":{"type":["array","null"],"items":{"type":"string"}}},"additionalProperties":false};
const func1 = (runtime0.default ?? runtime0);

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://agentproto.dev/schemas/nullable/1/Note.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.title === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "title"},message:"must have required property '"+"title"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "title") || (key0 === "tags"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.title !== undefined){
let data0 = data.title;
if((typeof data0 !== "string") && (data0 !== null)){
const err2 = {instancePath:instancePath+"/title",schemaPath:"#/properties/title/type",keyword:"type",params:{type: schema31.properties.title.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(typeof data0 === "string"){
if(data0.length > 10){
if(func1(data0) > 10){
const err3 = {instancePath:instancePath+"/title",schemaPath:"#/properties/title/maxLength",keyword:"maxLength",params:{limit: 10},message:"must NOT have more than 10 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
}
if(data.tags !== undefined){
let data1 = data.tags;
if((!(Array.isArray(data1))) && (data1 !== null)){
const err4 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/type",keyword:"type",params:{type: schema31.properties.tags.type},message:"must be array,null"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
if(typeof data1[i0] !== "string"){
const err5 = {instancePath:instancePath+"/tags/" + i0,schemaPath:"#/properties/tags/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}


function fastFirst(fast, full){
const validate = function(data, context){
if(fast(data)){
validate.errors = null;
return true;
}
const valid = full(data, context);
validate.errors = full.errors;
return valid;
};
validate.fast = fast;
validate.full = full;
return validate;
}
const fastUcs2length = (runtime1.default ?? runtime1);
function fast0(data){
if(!((data && typeof data == "object" && !Array.isArray(data)))) return false;
{const v1 = data["title"];
if(v1 === undefined) return false;
if(!(typeof v1 == "string" || v1 === null)) return false;
if(typeof v1 == "string"){
if(v1.length > 10 && fastUcs2length(v1) > 10) return false;
}
}
{const v2 = data["tags"];
if(v2 !== undefined){
if(!(Array.isArray(v2) || v2 === null)) return false;
if(Array.isArray(v2)){
for(let v3 = 0; v3 < v2.length; v3++){
if(!(typeof v2[v3] == "string")) return false;
}
}
}}
for(const v4 in data){
if(!(v4 === "title" || v4 === "tags")){
return false;
}
}
return true;
}
